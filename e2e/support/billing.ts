/** Billing seeds through the API: a chosen plan and a started membership on the sandbox gateway. */
import { api } from './api';

export const TEST_CARD = {
  number: '4242424242424242',
  cvv: '123',
  month: '12',
  year: '30',
  name: 'Ada Lovelace',
  zip: '10001',
};
export const DECLINED_CARD = '4000000000000002';

export async function choosePlan(token: string, planIndex: number): Promise<void> {
  const res = await api('PUT', `/user/membership/${planIndex}`, undefined, token);
  if (res.status !== 200) throw new Error(`PUT /user/membership answered ${res.status}`);
}

export async function startMembership(token: string, card = TEST_CARD): Promise<void> {
  const res = await api('POST', '/user/membership', card, token);
  if (res.status !== 200) throw new Error(`POST /user/membership answered ${res.status}`);
}
