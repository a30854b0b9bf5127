/**
 * Everything under /admin (one lazy chunk): /admin/sign-in passes the second factor; every
 * other page sits in the console layout and first makes sure this session has passed it.
 */
import { API_MSG } from '@bountyhunt/shared/api';
import Alert from '@mui/material/Alert';
import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Outlet, Route, Routes } from 'react-router';
import { PageSpinner } from '../../components/page-spinner';
import { ADMIN_PAGES } from './admin-pages';
import { useTotpStatus } from './api/totp';
import { AdminLayout } from './components/admin-layout';
import SecondFactorPage from './pages/second-factor-page';

function PassedSecondFactor({ children }: { children: ReactNode }) {
  const { data: res, isPending } = useTotpStatus();
  if (isPending) return <PageSpinner />;
  if (!res || res.status !== 200)
    return <Alert severity="error">{res?.message || API_MSG.formOther(res?.status ?? 500)}</Alert>;
  if (!res.data.secondFactor) return <Navigate to="/admin/sign-in" replace />;
  return <>{children}</>;
}

const routes = ADMIN_PAGES.flatMap((p) => [
  { path: p.path, Page: lazy(p.page) },
  ...(p.children ?? []).map((c) => ({ path: c.path, Page: lazy(c.page) })),
]);

export default function AdminApp() {
  return (
    <Routes>
      <Route path="sign-in" element={<SecondFactorPage />} />
      <Route
        element={
          <PassedSecondFactor>
            <AdminLayout>
              <Suspense fallback={<PageSpinner />}>
                <Outlet />
              </Suspense>
            </AdminLayout>
          </PassedSecondFactor>
        }
      >
        {routes.map(({ path, Page }) =>
          path ? (
            <Route key={path} path={path} element={<Page />} />
          ) : (
            <Route key="index" index element={<Page />} />
          ),
        )}
        <Route path="*" element={<Navigate to="/admin" replace />} />
      </Route>
    </Routes>
  );
}
