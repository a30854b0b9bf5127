import { act, cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { buildRouteTable, type RouteHandle } from './route-table';

function table() {
  const routes = buildRouteTable([
    {
      path: '/',
      layout: 'none',
      page: () => Promise.resolve({ default: () => <p>the page</p> }),
    },
  ]);
  const router = createMemoryRouter(routes, { initialEntries: ['/'] });
  const handle = router.state.matches.at(-1)!.route.handle as RouteHandle;
  return { router, handle };
}

describe('page chunks', () => {
  afterEach(cleanup);

  it('a preloaded page renders in the first pass, without the loading spinner', async () => {
    const { router, handle } = table();
    await handle.preload();
    // No awaiting: what the first render pass shows.
    act(() => {
      render(<RouterProvider router={router} />);
    });
    expect(screen.getByText('the page')).toBeTruthy();
    expect(screen.queryByLabelText('Loading')).toBeNull();
  });

  it('a page not loaded yet shows the spinner, then the page', async () => {
    const { router } = table();
    render(<RouterProvider router={router} />);
    expect(screen.getByLabelText('Loading')).toBeTruthy();
    expect(await screen.findByText('the page')).toBeTruthy();
  });
});
