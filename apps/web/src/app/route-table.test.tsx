import { act, cleanup, render, screen } from '@testing-library/react';
import { matchRoutes, MemoryRouter, useRoutes, type RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildRouteTable, type RouteHandle } from './route-table';

function table() {
  const routes = buildRouteTable([
    {
      path: '/',
      layout: 'none',
      page: () => Promise.resolve({ default: () => <p>the page</p> }),
    },
  ]);
  const handle = matchRoutes(routes, '/')!.at(-1)!.route.handle as RouteHandle;
  return { routes, handle };
}

function Routes({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}

function app(routes: RouteObject[]) {
  return (
    <MemoryRouter initialEntries={['/']}>
      <Routes routes={routes} />
    </MemoryRouter>
  );
}

describe('page chunks', () => {
  afterEach(cleanup);

  it('a preloaded page renders in the first pass, without the loading spinner', async () => {
    const { routes, handle } = table();
    await handle.preload();
    // No awaiting: what the first render pass shows.
    act(() => {
      render(app(routes));
    });
    expect(screen.getByText('the page')).toBeTruthy();
    expect(screen.queryByLabelText('Loading')).toBeNull();
  });

  it('a page not loaded yet shows the spinner, then the page', async () => {
    const { routes } = table();
    render(app(routes));
    expect(screen.getByLabelText('Loading')).toBeTruthy();
    expect(await screen.findByText('the page')).toBeTruthy();
  });
});

describe('a page that fails', () => {
  afterEach(cleanup);

  it('shows the error notice in place of the page', async () => {
    const routes = buildRouteTable([
      {
        path: '/',
        layout: 'none',
        page: () => Promise.reject(new Error('chunk gone')),
      },
    ]);
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      render(app(routes));
      expect(await screen.findByText('Something went wrong while showing this page.')).toBeTruthy();
    } finally {
      spy.mockRestore();
    }
  });
});
