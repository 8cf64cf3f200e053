import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { paths, ROLE_LABELS, formatDate } from '@tay/contract';
import { PageLoader } from '../../../components/ui/page-loader';
import { useSession } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useAcceptInvitation, useInvitationPreview } from '../api/team-api';

/**
 * /invitation?token=…: the link of an invitation to join a business, for a person who already
 * has a Tay account. Signed out, they sign in first and come back here; signed in as the person
 * it was sent to, they see what they are joining and accept it.
 */
export function InvitationPage() {
  useDocumentTitle('Invitation');
  const [params] = useSearchParams();
  const token = params.get('token');
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const signedIn = session.status === 'authenticated';
  const preview = useInvitationPreview(token, signedIn);
  const accept = useAcceptInvitation();

  const frame = (body: React.ReactNode) => (
    <Paper withBorder shadow="sm" radius="md" p="xl" maw={480} mx="auto" mt="xl">
      <Stack gap="md">
        <Title order={1} fz={26}>
          Join a business on Tay
        </Title>
        {body}
      </Stack>
    </Paper>
  );

  if (!token) {
    return frame(
      <Alert color="red" role="alert">
        This invitation link is incomplete. Open the link from the e-mail again.
      </Alert>,
    );
  }
  if (session.status === 'loading') return <PageLoader />;
  if (!signedIn) {
    return frame(
      <>
        <Text>Sign in with your Tay account to see and accept this invitation.</Text>
        <Button component={Link} to={paths.login} state={{ from: `${location.pathname}${location.search}` }}>
          Sign in to accept
        </Button>
      </>,
    );
  }
  if (preview.isPending) return <PageLoader />;
  if (preview.error) {
    return frame(
      <>
        <Alert color="red" role="alert" title="This invitation cannot be accepted">
          {preview.error.message}
        </Alert>
        <Button component={Link} to={paths.business.home} variant="default">
          Go to your businesses
        </Button>
      </>,
    );
  }
  const invitation = preview.data;
  return frame(
    <>
      <Text>
        {invitation.invitedBy} invites you to join <strong>{invitation.businessName}</strong> as <strong>{ROLE_LABELS[invitation.role].label}</strong>:{' '}
        {ROLE_LABELS[invitation.role].description.charAt(0).toLowerCase() + ROLE_LABELS[invitation.role].description.slice(1)}
      </Text>
      <Text size="sm" c="dimmed">
        The invitation works until {formatDate(invitation.expiresAt)}.
      </Text>
      {accept.error && (
        <Alert color="red" role="alert">
          {accept.error.message}
        </Alert>
      )}
      <Group>
        <Button
          loading={accept.isPending}
          onClick={() =>
            accept.mutate(token, {
              onSuccess: (joined) => {
                session.selectBusiness(joined.businessId);
                notifications.show({ color: 'teal', title: `You joined ${joined.businessName}`, message: `Your role: ${ROLE_LABELS[joined.role].label}.` });
                void session.refresh().then(() => navigate(paths.business.home, { replace: true }));
              },
            })
          }
        >
          Accept and join
        </Button>
        <Button component={Link} to={paths.business.home} variant="default">
          Not now
        </Button>
      </Group>
    </>,
  );
}
