import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { BrowserRouter, useRoutes, type RouteObject } from 'react-router';
import { FeedbackProvider } from '../lib/feedback';
import { LiveBridge } from '../lib/live';
import { SessionProvider } from '../lib/session';
import { theme } from '../lib/theme';

function AppRoutes({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}

/** The query client and route table come from main.tsx, made before the first render. */
export function App({ queryClient, routes }: { queryClient: QueryClient; routes: RouteObject[] }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <LiveBridge />
          <FeedbackProvider>
            <BrowserRouter>
              <AppRoutes routes={routes} />
            </BrowserRouter>
          </FeedbackProvider>
        </SessionProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}
