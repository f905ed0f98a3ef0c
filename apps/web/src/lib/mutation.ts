/**
 * The one mutation pattern: while pending the caller's button shows a loader and cannot be pressed
 * again; on success the server's message is toasted and the area's lists refresh; on failure the
 * error text is toasted (by the form that sent it, when there is one: it names fields by their
 * labels).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast, toastErrorSoon } from './toast';

export function useApiMutation<TVars, TResult extends { message?: string }>(options: {
  mutationFn: (vars: TVars) => Promise<TResult>;
  /** Query keys whose data this mutation changes. */
  invalidates?: readonly (readonly unknown[])[];
  /** The toast on success; the server's message when not given. */
  successMessage?: string;
  onSuccess?: (result: TResult, vars: TVars) => void;
}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: options.mutationFn,
    onSuccess: async (result, vars) => {
      const message = options.successMessage ?? result.message;
      if (message) toast('success', message);
      options.onSuccess?.(result, vars);
      await Promise.all(
        (options.invalidates ?? []).map((queryKey) => client.invalidateQueries({ queryKey })),
      );
    },
    onError: (err) => toastErrorSoon(err),
  });
}
