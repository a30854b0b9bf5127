import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FeedbackProvider, useFeedback } from './feedback';

const confettiMock = vi.fn();
vi.mock('canvas-confetti', () => ({ default: (...args: unknown[]) => confettiMock(...args) }));

function Probe({ onDone }: { onDone?: () => void }) {
  const { notify, confetti } = useFeedback();
  return (
    <>
      <button onClick={() => notify('Saved!', 'success')}>notify</button>
      <button onClick={() => void confetti().then(onDone)}>confetti</button>
    </>
  );
}

describe('feedback (SPEC.md §1)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    confettiMock.mockClear();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('the snackbar shows the message and hides after 6 seconds', async () => {
    render(
      <FeedbackProvider>
        <Probe />
      </FeedbackProvider>,
    );
    await import('./feedback-snackbar'); // lazily loaded by the provider
    fireEvent.click(screen.getByText('notify'));
    for (let i = 0; i < 5 && !screen.queryByTestId('snackbar'); i++) {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1);
      });
    }
    expect(screen.getByTestId('snackbar').textContent).toContain('Saved!');
    await act(async () => {
      vi.advanceTimersByTime(5900);
    });
    expect(screen.queryByText('Saved!')).not.toBeNull();
    // 6 s after showing, the snackbar closes; its exit transition then unmounts it.
    for (let i = 0; i < 4; i++) {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(500);
      });
    }
    expect(screen.queryByText('Saved!')).toBeNull();
  });

  it('confetti runs for 5 seconds, then resolves', async () => {
    const done = vi.fn();
    render(
      <FeedbackProvider>
        <Probe onDone={done} />
      </FeedbackProvider>,
    );
    fireEvent.click(screen.getByText('confetti'));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(4000);
    });
    expect(confettiMock).toHaveBeenCalled();
    expect(done).not.toHaveBeenCalled();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1500);
    });
    expect(done).toHaveBeenCalledTimes(1);
  });
});
