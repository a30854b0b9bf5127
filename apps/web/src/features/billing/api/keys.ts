/** The billing feature's query keys, in one place; everything sits under `['billing']`. */
export const billingKeys = {
  all: ['billing'] as const,
  membership: () => [...billingKeys.all, 'membership'] as const,
  silver: (before?: number) => [...billingKeys.all, 'silver', before ?? 'first'] as const,
};
