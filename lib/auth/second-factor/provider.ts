// next-auth's provider for the second step of a sign-in (sign-in-step.ts): the pending sign-in's
// token and a code, posted to /api/auth/callback/second-factor.
import 'server-only';
import CredentialsProvider from 'next-auth/providers/credentials';
import { SECOND_FACTOR_PROVIDER_ID } from './second-step';
import { authorizeSecondStep } from './sign-in-step';

export function secondStepProvider() {
  return CredentialsProvider({
    id: SECOND_FACTOR_PROVIDER_ID,
    name: 'Second factor',
    credentials: { pending: { label: 'Pending sign-in', type: 'text' }, code: { label: 'Code', type: 'text' } },
    authorize: authorizeSecondStep,
  });
}
