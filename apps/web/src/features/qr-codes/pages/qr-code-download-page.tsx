import { Alert, Anchor, Button, Card, Center, CopyButton, Group, Loader, NumberInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCopy, IconDownload, IconEdit, IconHistory } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { formatDay, paths, QR_PNG_DEFAULT_SIZE, QR_PNG_MAX_SIZE, QR_PNG_MIN_SIZE, type QrCode, type QrImageFormat } from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { qrCodeManageHref, qrCodeTransactionsHref } from '../../../lib/qr-code-paths';
import { useBusinessId } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { downloadQrImage, useQrCode, useQrImage } from '../api/qr-codes-api';
import { BlobImage, BlobPdf } from '../components/file-preview';
import { permittedQrCodeActions, useQrCodeActions } from '../components/qr-code-actions';
import { QrPageHeading } from '../components/qr-page-heading';
import { qrAmountText } from '../qr-amount';

/** A PNG size the image endpoint takes: whole pixels from QR_PNG_MIN_SIZE to QR_PNG_MAX_SIZE. */
export function isPngSize(size: unknown): size is number {
  return typeof size === 'number' && Number.isInteger(size) && size >= QR_PNG_MIN_SIZE && size <= QR_PNG_MAX_SIZE;
}

/**
 * /business/payment/qrcode/download?qrcodeid=: the code as a PNG (at a size chosen from 256 to
 * 2048 pixels), an SVG and a one-page PDF poster, each previewed and downloadable, and the pay
 * link it encodes, to copy.
 */
export function QrCodeDownloadPage() {
  const [params] = useSearchParams();
  const qrId = params.get('qrcodeid');
  const code = useQrCode(qrId);
  useDocumentTitle(code.data ? `QR code ${code.data.label}` : 'QR code');
  if (!qrId) {
    return (
      <Stack gap="md" maw={640}>
        <Title order={1}>QR code</Title>
        <Text>
          Choose a code from{' '}
          <Anchor component={Link} to={paths.payments.qrCodes}>
            your QR codes
          </Anchor>{' '}
          to download it.
        </Text>
      </Stack>
    );
  }
  if (code.error) return <LoadError title="We could not load this QR code" error={code.error} onRetry={() => void code.refetch()} />;
  if (!code.data) return <PageLoader />;
  return <Downloads code={code.data} />;
}

function Downloads({ code }: { code: QrCode }) {
  const businessId = useBusinessId();
  const { run, canWrite } = useQrCodeActions();
  const actions = permittedQrCodeActions(code.actions, canWrite);
  // The size in the field (text while it is typed), and the last whole size in range.
  const [typed, setTyped] = useState<number | string>(QR_PNG_DEFAULT_SIZE);
  const [size, setSize] = useState(QR_PNG_DEFAULT_SIZE);
  const [previewSize] = useDebouncedValue(size, 300);
  const [downloading, setDownloading] = useState<QrImageFormat | null>(null);

  const download = async (format: QrImageFormat) => {
    if (!businessId) return;
    setDownloading(format);
    try {
      await downloadQrImage(businessId, code, format, size);
    } catch (error) {
      notifications.show({
        color: 'red',
        title: `The ${format.toUpperCase()} was not downloaded`,
        message: error instanceof Error ? error.message : 'Please try again.',
      });
    } finally {
      setDownloading(null);
    }
  };

  const downloadButton = (format: QrImageFormat, label: string) => (
    <Button leftSection={<IconDownload size={16} />} loading={downloading === format} onClick={() => void download(format)} fullWidth>
      {label}
    </Button>
  );

  return (
    <Stack gap="lg">
      <QrPageHeading
        title={code.label}
        status={code.displayStatus}
        line={
          <>
            {qrAmountText(code)}
            {code.expiresOn ? ` · takes payments until ${formatDay(code.expiresOn)}` : ''}
          </>
        }
        actions={
          <>
            {actions.includes('Transactions') && (
              <Button variant="default" component={Link} to={qrCodeTransactionsHref(code.qrId)} leftSection={<IconHistory size={16} />}>
                Transactions
              </Button>
            )}
            {actions.includes('Enable') && (
              <Button variant="default" onClick={() => run('Enable', code)}>
                Enable
              </Button>
            )}
            {actions.includes('Disable') && (
              <Button variant="default" onClick={() => run('Disable', code)}>
                Disable
              </Button>
            )}
            {actions.includes('Edit') && (
              <Button component={Link} to={qrCodeManageHref(code.qrId)} leftSection={<IconEdit size={16} />}>
                Edit
              </Button>
            )}
          </>
        }
      />
      {code.displayStatus !== 'active' && (
        <Alert color="orange" title={code.displayStatus === 'Expired' ? 'This code has expired' : 'This code is disabled'}>
          Payers who scan it are told it takes no payments.
          {code.displayStatus === 'Disabled' && canWrite ? ' Enable it to take payments again.' : ''}
          {code.displayStatus === 'Expired' && canWrite ? ' Edit its expiry date to take payments again.' : ''}
        </Alert>
      )}
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <TextInput label="Pay link" description="What the code opens; share it where a code cannot go" value={code.payUrl} readOnly style={{ flex: 1 }} />
        <CopyButton value={code.payUrl}>
          {({ copied, copy }) => (
            <Button variant="light" leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />} onClick={copy}>
              {copied ? 'Copied' : 'Copy link'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        <Format title="PNG image" description="For screens, documents and most printers.">
          <Preview qrId={code.qrId} format="png" size={previewSize} label={`The QR code of ${code.label} as a PNG image`} />
          <NumberInput
            label="Size (pixels)"
            description={`From ${QR_PNG_MIN_SIZE} to ${QR_PNG_MAX_SIZE}, square`}
            min={QR_PNG_MIN_SIZE}
            max={QR_PNG_MAX_SIZE}
            step={128}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="blur"
            value={typed}
            onChange={(value) => {
              setTyped(value);
              if (isPngSize(value)) setSize(value);
            }}
          />
          {downloadButton('png', `Download PNG (${size} px)`)}
        </Format>
        <Format title="SVG image" description="Sharp at any size: for print shops and design tools.">
          <Preview qrId={code.qrId} format="svg" size={previewSize} label={`The QR code of ${code.label} as an SVG image`} />
          {downloadButton('svg', 'Download SVG')}
        </Format>
        <Format title="PDF poster" description="One page with the code, its label and how to pay: print it and put it up.">
          <Preview qrId={code.qrId} format="pdf" size={previewSize} label={`The PDF poster of ${code.label}`} />
          {downloadButton('pdf', 'Download PDF poster')}
        </Format>
      </SimpleGrid>
    </Stack>
  );
}

function Format({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-label={title}>
      <Stack gap="sm" justify="space-between" h="100%">
        <div>
          <Title order={2} fz="lg">
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        </div>
        {children}
      </Stack>
    </Card>
  );
}

/** The code as the API makes it, read with the session (`disposition=inline`). */
function Preview({ qrId, format, size, label }: { qrId: string; format: QrImageFormat; size: number; label: string }) {
  const image = useQrImage(qrId, format, size);
  if (image.error) return <LoadError title="The preview could not be loaded" error={image.error} onRetry={() => void image.refetch()} />;
  if (!image.data) {
    return (
      <Center mih={200}>
        <Loader role="status" aria-label={`Loading the ${format.toUpperCase()} preview`} />
      </Center>
    );
  }
  return format === 'pdf' ? <BlobPdf blob={image.data} title={label} /> : <BlobImage blob={image.data} alt={label} maxWidth={240} />;
}
