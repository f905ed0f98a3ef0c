import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Loading } from '../../components/Loading';
import { useMyFactors } from '../../lib/factors';

/** Where an account that must add a second factor does it: the profile's security section. */
export const ENROLMENT_PATH = '/profile';

/**
 * Whether this account must add a second factor before anything else (the owner requires one and
 * it has none); undefined until known. A failed read counts as no: the server decides every call.
 */
export function useEnrolmentRequired(): boolean | undefined {
  const { data, isError } = useMyFactors();
  if (isError) return false;
  return data?.enrolmentRequired;
}

/**
 * The shell's screens, or, while a second factor is required first, only the profile: the server
 * refuses every other call then (403 "A second factor is required"), so any other address goes
 * there. Screens wait for the answer, so none asks for what would be refused.
 */
export function EnrolmentGate(props: { children: ReactNode }) {
  const required = useEnrolmentRequired();
  const { pathname } = useLocation();
  if (required === undefined) return <Loading />;
  if (required && pathname !== ENROLMENT_PATH) return <Navigate to={ENROLMENT_PATH} replace />;
  return props.children;
}
