/** The thread's chunk, as a lazy component's module (messages-page.tsx, routes.tsx). */
export const loadThread = () => import('./components/thread').then((m) => ({ default: m.Thread }));
