import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { RouterProvider } from 'react-router/dom';
import { FeedbackProvider } from '../lib/feedback';
import { LiveBridge } from '../lib/live';
import { SessionProvider } from '../lib/session';
import { theme } from '../lib/theme';
import type { createAppRouter } from './router';

/** The query client and router come from main.tsx, made before the first render. */
export function App({
  queryClient,
  router,
}: {
  queryClient: QueryClient;
  router: ReturnType<typeof createAppRouter>;
}) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <LiveBridge />
          <FeedbackProvider>
            <RouterProvider router={router} />
          </FeedbackProvider>
        </SessionProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}
