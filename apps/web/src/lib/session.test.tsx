import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from './api-client';
import { createQueryClient } from './query';
import { SessionProvider, useSession, type Session } from './session';

let session: Session;
function Probe({ onSession }: { onSession: (s: Session) => void }) {
  const s = useSession();
  useEffect(() => {
    onSession(s);
  });
  return <p data-testid="status">{`${s.status}:${s.user?.email ?? ''}`}</p>;
}
const renderSession = () =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <SessionProvider>
        <Probe
          onSession={(s) => {
            session = s;
          }}
        />
      </SessionProvider>
    </QueryClientProvider>,
  );

const me = { user: { userId: 7, email: 'me@example.com', role: 1 }, hunter: null };
const json = (status: number, body: unknown) =>
  new Response(status === 204 ? null : JSON.stringify(body), { status });

describe('session (SPEC.md §4)', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    localStorage.clear();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('no stored token: signed out at once, nothing fetched', () => {
    renderSession();
    expect(screen.getByTestId('status').textContent).toBe('signed-out:');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('a stored token is unresolved until GET /user answers 200', async () => {
    localStorage.setItem('ss', 'tok');
    fetchMock.mockResolvedValue(json(200, me));
    renderSession();
    expect(screen.getByTestId('status').textContent).toBe('unresolved:');
    await waitFor(() =>
      expect(screen.getByTestId('status').textContent).toBe('signed-in:me@example.com'),
    );
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toMatch(/\/user$/);
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer tok');
  });

  it('any other answer logs out and forgets the token', async () => {
    localStorage.setItem('ss', 'tok');
    fetchMock.mockResolvedValue(json(401, { message: 'no', code: 'UNAUTHORIZED' }));
    renderSession();
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('signed-out:'));
    expect(localStorage.getItem('ss')).toBeNull();
  });

  it('a 401 to a call of the signed-in session ends it: signed out, token gone, ended set', async () => {
    localStorage.setItem('ss', 'tok');
    fetchMock.mockResolvedValueOnce(json(200, me));
    renderSession();
    await waitFor(() =>
      expect(screen.getByTestId('status').textContent).toBe('signed-in:me@example.com'),
    );
    expect(session.ended).toBeFalsy();
    fetchMock.mockResolvedValueOnce(json(401, { message: 'no', code: 'UNAUTHORIZED' }));
    await act(async () => {
      await apiRequest('GET', '/user/silver');
    });
    expect(screen.getByTestId('status').textContent).toBe('signed-out:');
    expect(session.ended).toBe(true);
    expect(localStorage.getItem('ss')).toBeNull();
  });

  it('login stores the token and loads the user; logout deletes the server session', async () => {
    renderSession();
    fetchMock.mockResolvedValueOnce(json(200, me));
    await act(async () => {
      const res = await session.login('new-token');
      expect(res.status).toBe(200);
    });
    expect(localStorage.getItem('ss')).toBe('new-token');
    expect(screen.getByTestId('status').textContent).toBe('signed-in:me@example.com');

    fetchMock.mockResolvedValueOnce(json(204, null));
    await act(async () => {
      await session.logout();
    });
    const [url, init] = fetchMock.mock.calls[1]!;
    expect(String(url)).toMatch(/\/auth\/new-token$/);
    expect(init?.method).toBe('DELETE');
    expect(localStorage.getItem('ss')).toBeNull();
    expect(screen.getByTestId('status').textContent).toBe('signed-out:');
  });
});
