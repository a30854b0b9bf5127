/**
 * What every settings form does after a submit (SPEC.md §2 Settings page, §4 Forms): a
 * loading state while it runs, the error cleared before each submit and on each edit, and on
 * success either the next route (when one is supplied) or the success snackbar and /account.
 */
import { API_MSG } from '@bountyhunt/shared/api';
import { useCallback, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { ApiResult } from '../../../lib/api-client';
import { useFeedback } from '../../../lib/feedback';

/** Only same-site paths may be a next route (no //host, no scheme). */
export function safeNext(value: string | null | undefined): string | undefined {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\'))
    return undefined;
  return value;
}

/** The next route: the page's own (onboarding) or ?next=/path from the link that opened it. */
export function useNextRoute(own?: string): string | undefined {
  const [params] = useSearchParams();
  return own ?? safeNext(params.get('next'));
}

/** An unexpected answer: the server's SPEC.md message for 400s, else the code (SPEC.md §8 Other forms). */
export function formError(res: ApiResult<unknown>, other = API_MSG.formOther): string {
  if (res.status === 500 && res.message === API_MSG.unknownError)
    return API_MSG.thrown(API_MSG.unknownError);
  if (res.status === 400 && res.message) return res.message;
  return other(res.status);
}

export interface FormFlow {
  error: string;
  loading: boolean;
  /** Clears the error (call from every field's onChange). */
  clearError: () => void;
  setError: (message: string) => void;
  /**
   * Runs one submit: `work` resolves with an error message to show, or null on success, after
   * which the flow goes to the next route or shows `success` and goes to /account.
   */
  submit: (work: () => Promise<string | null>) => Promise<void>;
  /** Skip for Now: straight to the next route. */
  skip: () => void;
  next: string | undefined;
}

export function useFormFlow(success: string, ownNext?: string): FormFlow {
  const navigate = useNavigate();
  const { notify } = useFeedback();
  const next = useNextRoute(ownNext);
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(false);

  const clearError = useCallback(() => setError(''), []);

  const submit = useCallback(
    async (work: () => Promise<string | null>) => {
      setError('');
      setLoading(true);
      let message: string | null;
      try {
        message = await work();
      } catch (err) {
        message = API_MSG.thrown(err instanceof Error ? err.message : String(err));
      }
      setLoading(false);
      if (message) {
        setError(message);
        return;
      }
      if (next) {
        navigate(next);
      } else {
        notify(success, 'success');
        navigate('/account');
      }
    },
    [navigate, next, notify, success],
  );

  const skip = useCallback(() => navigate(next ?? '/account'), [navigate, next]);

  return { error, loading, clearError, setError, submit, skip, next };
}
