/**
 * `npm run seed|admin|db:migrate|backup|restore` run in apps/api (npm workspaces), but the
 * operator meant the folder they typed the command in (where `npm start` keeps `./data`):
 * relative paths such as DATA_DIR are taken from there.
 */
export function useOperatorCwd(): void {
  if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
}
