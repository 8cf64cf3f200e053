import { Button, Group, Modal, Stack } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useEffect, useMemo } from 'react';

/**
 * A PDF shown on the page (the browser's own viewer in a frame), with its download beside it: a
 * preview is read first and kept only if wanted. The object URL lives while the dialog is open.
 */
export function PdfPreviewModal({ pdf, title, fileName, onClose }: { pdf: Blob | null; title: string; fileName: string; onClose: () => void }) {
  const url = useMemo(() => (pdf ? URL.createObjectURL(pdf) : null), [pdf]);
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);
  return (
    <Modal opened={pdf !== null} onClose={onClose} title={title} size="xl">
      {url && (
        <Stack gap="sm">
          <iframe src={url} title={title} style={{ width: '100%', height: '70vh', border: '1px solid var(--mantine-color-gray-3)', borderRadius: 4 }} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button component="a" href={url} download={fileName} leftSection={<IconDownload size={16} />}>
              Download PDF
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
