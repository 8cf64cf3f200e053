import { Container } from '@mantine/core';
import { Navigate, Outlet, useLocation } from 'react-router';
import { paths } from '@tay/contract';
import { LoadError } from '../components/ui/load-error';
import { PageLoader } from '../components/ui/page-loader';
import { SessionProvider, useSession } from '../lib/session';
import { decideAccess, type AccessSession } from './access-rules';

function AccessGuard() {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'authenticated' && session.currentUserError) {
    return (
      <Container size="sm" py="xl">
        <LoadError title="We could not load your account" error={session.currentUserError} onRetry={() => void session.refresh()} />
      </Container>
    );
  }
  const access: AccessSession =
    session.status === 'authenticated' && session.user
      ? {
          status: 'authenticated',
          mustChangePassword: session.user.mustChangePassword,
          userState: session.currentUser?.userState ?? null,
          businessCount: session.currentUser ? session.currentUser.businesses.length : null,
        }
      : { status: session.status === 'authenticated' ? 'loading' : session.status };
  const decision = decideAccess(location.pathname, access);
  if (decision.type === 'spinner') return <PageLoader />;
  if (decision.type === 'redirect') {
    // Remember where an anonymous visitor was going, to return there after sign-in.
    const state = decision.to === paths.login && session.status !== 'authenticated' ? { from: location.pathname + location.search } : undefined;
    return <Navigate to={decision.to} replace state={state} />;
  }
  return <Outlet />;
}

/** The root of every route: the session, then the docs/product.md §2 access rules. */
export function RootRoute() {
  return (
    <SessionProvider>
      <AccessGuard />
    </SessionProvider>
  );
}
