import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { session } from '../../lib/session';

/** Where sign-in sends the user back to. */
export type SignInState = { from?: string };

/** The shell needs a stored token; without one, sign in first and come back here. */
export function RequireAuth(props: { children: ReactNode }) {
  const location = useLocation();
  if (!session.isSignedIn()) {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to="/auth/sign-in" replace state={{ from } satisfies SignInState} />;
  }
  return props.children;
}
