import { Alert, Badge, Button, Code, CopyButton, Group, Image, List, Modal, Paper, PasswordInput, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { userEndpoints, type UserSession } from '@tay/contract';
import { notifications } from '@mantine/notifications';
import { IconShieldCheck } from '@tabler/icons-react';
import QRCode from 'qrcode';
import { useEffect, useState, type FormEvent } from 'react';
import { CodeInput } from '../../../components/ui/code-input';
import { describeFailure, type IdentityFailure } from '../../../lib/identity';
import { secondFactor } from '../../../lib/second-factor';
import { useBusinessTime } from '../../../lib/business-time';
import { callForData, endpointQuery } from '../../../lib/endpoint-client';
import { useSession } from '../../../lib/session';
import { LoadError } from '../../../components/ui/load-error';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** The secret as text, for an app that cannot scan: the `secret` of the otpauth URI, in groups of four. */
export function secretOf(totpURI: string): string {
  const secret = new URL(totpURI).searchParams.get('secret') ?? '';
  return secret.replace(/(.{4})/g, '$1 ').trim();
}

function downloadCodes(codes: readonly string[], email: string) {
  const text = `Tay recovery codes for ${email}\nEach code signs in once instead of a code from your authenticator app.\n\n${codes.join('\n')}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'tay-recovery-codes.txt';
  link.click();
  URL.revokeObjectURL(url);
}

/** The ten recovery codes, shown once: copy or download them. */
function RecoveryCodes({ codes, email }: { codes: readonly string[]; email: string }) {
  return (
    <Stack gap="xs" role="region" aria-label="Recovery codes">
      <Text size="sm">Keep these recovery codes somewhere safe: each signs you in once if you lose your phone. They are shown only now.</Text>
      <SimpleGrid cols={2} spacing={4}>
        {codes.map((code) => (
          <Code key={code} ff="monospace" fz="sm">
            {code}
          </Code>
        ))}
      </SimpleGrid>
      <Group gap="xs">
        <CopyButton value={codes.join('\n')}>
          {({ copied, copy }) => (
            <Button size="xs" variant="light" onClick={copy}>
              {copied ? 'Copied' : 'Copy the codes'}
            </Button>
          )}
        </CopyButton>
        <Button size="xs" variant="light" onClick={() => downloadCodes(codes, email)}>
          Download the codes
        </Button>
      </Group>
    </Stack>
  );
}

/** Asks for the password before a change to the second factor, and runs `act` with it. */
function PasswordPrompt({
  title,
  opened,
  confirm,
  danger = false,
  onClose,
  act,
}: {
  title: string;
  opened: boolean;
  confirm: string;
  danger?: boolean;
  onClose: () => void;
  act: (password: string) => Promise<IdentityFailure | null>;
}) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!password) {
      setError('Enter your password.');
      return;
    }
    setBusy(true);
    const failure = await act(password);
    setBusy(false);
    if (failure) setError(describeFailure(failure).message);
    else setPassword('');
  };
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack>
          <PasswordInput
            label="Your password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={error}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy} color={danger ? 'red' : undefined}>
              {confirm}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

type Enrolment = { totpURI: string; backupCodes: string[]; qr: string | null };

const NETWORK_WORDS: Record<UserSession['network'], string> = { private: 'private network', public: 'internet', unknown: 'address unknown' };

/** The person's signed-in devices: this one marked; any other signed out at once, or all of them. */
function SignedInDevices() {
  const clock = useBusinessTime();
  const queryClient = useQueryClient();
  const list = useQuery(endpointQuery(userEndpoints.sessions, {}));
  const done = (message: string) => {
    notifications.show({ color: 'teal', title: 'Signed out', message });
    void queryClient.invalidateQueries({ queryKey: endpointQuery(userEndpoints.sessions, {}).queryKey });
  };
  const failed = (error: Error) => notifications.show({ color: 'red', title: 'Not signed out', message: error.message });
  const one = useMutation({
    mutationFn: (s: UserSession) => callForData(userEndpoints.revokeSession, { params: { sessionId: s.sessionId } }),
    onSuccess: (_data, s) => done(`${s.device} is signed out.`),
    onError: failed,
  });
  const others = useMutation({
    mutationFn: () => callForData(userEndpoints.revokeOtherSessions, {}),
    onSuccess: (data) => done(`${data.revoked} other device${data.revoked === 1 ? ' is' : 's are'} signed out.`),
    onError: failed,
  });
  const items = list.data?.items ?? [];
  const signOutOthers = () =>
    modals.openConfirmModal({
      title: 'Sign out every other device?',
      children: <Text size="sm">Every browser and device signed in to your account, except this one, is signed out at once.</Text>,
      labels: { confirm: 'Sign out the others', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => others.mutate(),
    });
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="devices-title">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} fz="lg" id="devices-title">
            Signed-in devices
          </Title>
          {items.length > 1 && (
            <Button size="xs" variant="outline" color="red" onClick={signOutOthers} loading={others.isPending}>
              Sign out all other devices
            </Button>
          )}
        </Group>
        {list.error ? (
          <LoadError title="We could not load your devices" error={list.error} onRetry={() => void list.refetch()} />
        ) : (
          <Table.ScrollContainer minWidth={520}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Device</Table.Th>
                  <Table.Th>Address</Table.Th>
                  <Table.Th>Last active</Table.Th>
                  <Table.Th>
                    <span className="visually-hidden">Action</span>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((s) => (
                  <Table.Tr key={s.sessionId}>
                    <Table.Td>
                      <Text size="sm">{s.device}</Text>
                      <Text size="xs" c="dimmed">
                        Signed in {clock.dateTime(s.signedInAt)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{s.ipAddress ?? '—'}</Text>
                      <Text size="xs" c="dimmed">
                        {NETWORK_WORDS[s.network]}
                      </Text>
                    </Table.Td>
                    <Table.Td>{clock.dateTime(s.lastActiveAt)}</Table.Td>
                    <Table.Td>
                      {s.current ? (
                        <Badge variant="light" color="teal">
                          This device
                        </Badge>
                      ) : (
                        <Button
                          size="xs"
                          variant="subtle"
                          color="red"
                          onClick={() => one.mutate(s)}
                          aria-label={`Sign out ${s.device}, last active ${clock.dateTime(s.lastActiveAt)}`}
                        >
                          Sign out
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * /business/settings/security (the user menu's "Security"): the person's second factor (ADR 052).
 * Turning the authenticator app on takes the password, shows the QR code, the secret as text and
 * the ten recovery codes once, and is confirmed with the app's first code; on, it makes new
 * recovery codes or is turned off, each with the password. Every change is e-mailed to the person.
 */
export function SecurityPage() {
  useDocumentTitle('Security');
  const { user, refresh } = useSession();
  const on = Boolean(user?.twoFactorEnabled);
  const [prompt, setPrompt] = useState<'enable' | 'disable' | 'codes' | null>(null);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [newCodes, setNewCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    if (!enrolment || enrolment.qr) return;
    let live = true;
    // An SVG, drawn without a canvas, shown as an image.
    void QRCode.toString(enrolment.totpURI, { type: 'svg', margin: 1, width: 200 }).then(
      (svg) => live && setEnrolment((e) => (e ? { ...e, qr: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` } : e)),
    );
    return () => {
      live = false;
    };
  }, [enrolment]);

  const confirm = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (code.length !== 6) {
      setCodeError('Enter the 6 digits your authenticator app shows.');
      return;
    }
    setConfirming(true);
    const result = await secondFactor.confirm(code);
    setConfirming(false);
    if (result.status !== true) {
      setCodeError(describeFailure(result).message);
      return;
    }
    setEnrolment(null);
    setCode('');
    await refresh();
    notifications.show({ color: 'teal', title: 'Authenticator app on', message: 'Signing in now asks for a code from the app.' });
  };

  return (
    <Stack gap="lg">
      <Title order={1}>Security</Title>
      <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="authenticator-title">
        <Stack gap="md">
          <Group justify="space-between">
            <Group gap="xs">
              <IconShieldCheck size={22} aria-hidden="true" />
              <Title order={2} fz="lg" id="authenticator-title">
                Authenticator app
              </Title>
            </Group>
            <Badge color={on ? 'teal' : 'gray'} variant="light">
              {on ? 'On' : 'Off'}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            A second factor: after your password, signing in asks for the 6-digit code an app such as Google Authenticator, 1Password or Authy shows on your
            phone. Someone who learns your password still cannot sign in.
          </Text>

          {enrolment ? (
            <form onSubmit={(event) => void confirm(event)} noValidate aria-label="Set up the authenticator app">
              <Stack gap="md">
                <Text size="sm" fw={600}>
                  1. Scan this QR code with your authenticator app
                </Text>
                {enrolment.qr ? <Image src={enrolment.qr} alt="QR code of your authenticator secret" w={200} h={200} /> : null}
                <Text size="sm">
                  Or enter this key in the app: <Code>{secretOf(enrolment.totpURI)}</Code>
                </Text>
                <Text size="sm" fw={600}>
                  2. Save your recovery codes
                </Text>
                <RecoveryCodes codes={enrolment.backupCodes} email={user?.email ?? ''} />
                <Text size="sm" fw={600}>
                  3. Enter the code the app shows
                </Text>
                <CodeInput
                  label="Authentication code"
                  description="The 6 digits your authenticator app shows now"
                  value={code}
                  onChange={setCode}
                  error={codeError}
                />
                <Group>
                  <Button type="submit" loading={confirming}>
                    Turn on
                  </Button>
                  <Button variant="default" onClick={() => setEnrolment(null)}>
                    Cancel
                  </Button>
                </Group>
              </Stack>
            </form>
          ) : on ? (
            <Group>
              <Button variant="light" onClick={() => setPrompt('codes')}>
                New recovery codes
              </Button>
              <Button variant="outline" color="red" onClick={() => setPrompt('disable')}>
                Turn off
              </Button>
            </Group>
          ) : (
            <Group>
              <Button onClick={() => setPrompt('enable')}>Set up an authenticator app</Button>
            </Group>
          )}
          {newCodes && (
            <Alert color="blue" title="New recovery codes" withCloseButton onClose={() => setNewCodes(null)}>
              <RecoveryCodes codes={newCodes} email={user?.email ?? ''} />
              <List size="sm" mt="xs">
                <List.Item>The codes you had before no longer work.</List.Item>
              </List>
            </Alert>
          )}
        </Stack>
      </Paper>

      <SignedInDevices />

      <PasswordPrompt
        title="Set up an authenticator app"
        opened={prompt === 'enable'}
        confirm="Continue"
        onClose={() => setPrompt(null)}
        act={async (password) => {
          const result = await secondFactor.enable(password);
          if (result.status !== true) return result;
          setPrompt(null);
          setEnrolment({ ...result.data, qr: null });
          return null;
        }}
      />
      <PasswordPrompt
        title="New recovery codes"
        opened={prompt === 'codes'}
        confirm="Make new codes"
        onClose={() => setPrompt(null)}
        act={async (password) => {
          const result = await secondFactor.newRecoveryCodes(password);
          if (result.status !== true) return result;
          setPrompt(null);
          setNewCodes(result.data.backupCodes);
          return null;
        }}
      />
      <PasswordPrompt
        title="Turn off the authenticator app?"
        opened={prompt === 'disable'}
        confirm="Turn off"
        danger
        onClose={() => setPrompt(null)}
        act={async (password) => {
          const result = await secondFactor.disable(password);
          if (result.status !== true) return result;
          setPrompt(null);
          await refresh();
          notifications.show({
            color: 'teal',
            title: 'Authenticator app off',
            message: 'Signing in asks for your password only. Trusted devices were forgotten.',
          });
          return null;
        }}
      />
    </Stack>
  );
}
