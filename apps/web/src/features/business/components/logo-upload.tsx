import { Avatar, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBuildingStore, IconUpload } from '@tabler/icons-react';
import { LOGO_CONTENT_TYPES, MAX_LOGO_BYTES } from '@tay/contract';
import { useUploadLogo } from '../api/business-api';

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}

/** The business logo: shown in the header; a default mark until one is uploaded. */
export function LogoUpload({ logoUrl, disabled }: { logoUrl: string | null | undefined; disabled: boolean }) {
  const upload = useUploadLogo();
  const choose = async (file: File | null) => {
    if (!file) return;
    if (!(LOGO_CONTENT_TYPES as readonly string[]).includes(file.type)) {
      notifications.show({ color: 'red', title: 'Logo not uploaded', message: 'Use a PNG, JPEG, WebP or SVG image.' });
      return;
    }
    if (file.size > MAX_LOGO_BYTES) {
      notifications.show({
        color: 'red',
        title: 'Logo not uploaded',
        message: `The image is ${Math.ceil(file.size / 1024)} KB; the limit is ${MAX_LOGO_BYTES / 1024} KB.`,
      });
      return;
    }
    upload.mutate(await readAsDataUrl(file), {
      onSuccess: () => notifications.show({ color: 'teal', title: 'Logo updated', message: 'It now shows in the header.' }),
      onError: (error) => notifications.show({ color: 'red', title: 'Logo not uploaded', message: error.message }),
    });
  };
  return (
    <Group align="center">
      <Avatar src={logoUrl ?? null} size={64} radius="md" alt="Business logo" color="blue">
        <IconBuildingStore size={30} aria-hidden="true" />
      </Avatar>
      <Stack gap={4}>
        <FileButton onChange={(file) => void choose(file)} accept={LOGO_CONTENT_TYPES.join(',')} disabled={disabled}>
          {(props) => (
            <Button {...props} variant="default" size="xs" leftSection={<IconUpload size={14} />} loading={upload.isPending} disabled={disabled}>
              {logoUrl ? 'Replace logo' : 'Upload logo'}
            </Button>
          )}
        </FileButton>
        <Text size="xs" c="dimmed">
          PNG, JPEG, WebP or SVG, up to {MAX_LOGO_BYTES / 1024} KB
        </Text>
      </Stack>
    </Group>
  );
}
