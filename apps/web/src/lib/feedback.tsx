/**
 * App-wide feedback (SPEC.md §1): a top-centre snackbar that hides after 6 s and a 5 s
 * confetti burst. `const { notify, confetti } = useFeedback()`.
 */
import { UI } from '@bountyhunt/shared/api';
import type { AlertColor } from '@mui/material/Alert';
import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { COLORS } from './theme';

export type Severity = AlertColor;

export interface Feedback {
  notify: (message: string, severity?: Severity) => void;
  /** Confetti for 5 seconds; resolves when it is over. */
  confetti: () => Promise<void>;
}

const FeedbackContext = createContext<Feedback | null>(null);

interface Note {
  id: number;
  message: string;
  severity: Severity;
}

let nextId = 1;

// The snackbar's code (Snackbar, Alert, transitions) loads with the first message.
const FeedbackSnackbar = lazy(() => import('./feedback-snackbar'));

async function fireConfetti(): Promise<void> {
  // Loaded on first use so the confetti code is not part of any page's initial JavaScript.
  const { default: confetti } = await import('canvas-confetti');
  if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
  const end = Date.now() + UI.confettiMs;
  const colors = [COLORS.primary, COLORS.secondary, COLORS.info, COLORS.success];
  await new Promise<void>((resolve) => {
    const frame = () => {
      void confetti({ particleCount: 4, angle: 60, spread: 60, origin: { x: 0, y: 0.7 }, colors });
      void confetti({ particleCount: 4, angle: 120, spread: 60, origin: { x: 1, y: 0.7 }, colors });
      if (Date.now() < end) requestAnimationFrame(frame);
      else resolve();
    };
    frame();
  });
}

export function FeedbackProvider({ children }: { children: ReactNode }) {
  const [note, setNote] = useState<Note | null>(null);
  const [open, setOpen] = useState(false);

  const notify = useCallback((message: string, severity: Severity = 'info') => {
    setNote({ id: nextId++, message, severity });
    setOpen(true);
  }, []);
  const confetti = useCallback(() => fireConfetti(), []);
  const value = useMemo(() => ({ notify, confetti }), [notify, confetti]);

  return (
    <FeedbackContext.Provider value={value}>
      {children}
      {note && (
        <Suspense fallback={null}>
          <FeedbackSnackbar
            key={note.id}
            open={open}
            message={note.message}
            severity={note.severity}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </FeedbackContext.Provider>
  );
}

export function useFeedback(): Feedback {
  const ctx = useContext(FeedbackContext);
  if (!ctx) throw new Error('useFeedback must be used inside <FeedbackProvider>');
  return ctx;
}
