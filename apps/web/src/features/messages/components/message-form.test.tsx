import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/query';
import { MessageForm } from './message-form';

const sent = {
  messageId: 5,
  conversationId: 3,
  senderId: 1,
  text: 'Hi',
  image: null,
  created: '2026-01-01T00:00:00Z',
  removed: false,
};

function renderForm(onSent = vi.fn()) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MessageForm conversationId={3} disabled={false} onSent={onSent} />
    </QueryClientProvider>,
  );
  return { onSent, input: screen.getByLabelText('Message') as HTMLTextAreaElement };
}

describe('MessageForm', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('counts characters and sends on Enter, not on Shift+Enter', async () => {
    fetchMock.mockResolvedValue(new Response(JSON.stringify(sent), { status: 200 }));
    const { onSent, input } = renderForm();
    fireEvent.change(input, { target: { value: 'Hi' } });
    expect(screen.getByTestId('message-counter').textContent).toBe('2/1000');
    fireEvent.keyDown(input, { key: 'Enter', shiftKey: true });
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(onSent).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toMatch(/\/conversations\/3\/messages$/);
    expect(JSON.parse(String(init?.body))).toEqual({ text: 'Hi' });
    await waitFor(() => expect(input.value).toBe(''));
  });

  it('refuses an empty message without asking the API', async () => {
    const { input } = renderForm();
    fireEvent.keyDown(input, { key: 'Enter' });
    await screen.findByText('Write a message first.');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows why a send failed (rate limit)', async () => {
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ message: 'Slow down.', code: 'RATE_LIMITED' }), {
        status: 429,
      }),
    );
    const { input } = renderForm();
    fireEvent.change(input, { target: { value: 'Again' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect((await screen.findByTestId('message-error')).textContent).toBe('Slow down.');
  });
});
