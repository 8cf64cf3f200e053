import { Group, Paper, Text, VisuallyHidden } from '@mantine/core';
import { IconFileTypeCsv, IconUpload } from '@tabler/icons-react';
import { useId, useRef, useState, type DragEvent, type ReactNode } from 'react';

/**
 * A place to drop a file or click to choose one. The file input itself is what the keyboard and
 * screen readers reach (it is visually hidden, not removed), so Tab lands on it and Enter or Space
 * opens the file chooser; dragging a file over the area outlines it.
 */
export function FileDrop({
  label,
  hint,
  accept,
  disabled = false,
  onFile,
  children,
}: {
  label: string;
  hint: ReactNode;
  accept: string;
  disabled?: boolean;
  onFile: (file: File) => void;
  children?: ReactNode;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [focused, setFocused] = useState(false);

  const take = (files: FileList | null) => {
    const file = files?.[0];
    if (file && !disabled) onFile(file);
  };
  const dragging = (event: DragEvent, on: boolean) => {
    event.preventDefault();
    if (!disabled) setOver(on);
  };

  return (
    <Paper
      component="label"
      htmlFor={id}
      withBorder
      radius="md"
      p="xl"
      onDragEnter={(e: DragEvent) => dragging(e, true)}
      onDragOver={(e: DragEvent) => dragging(e, true)}
      onDragLeave={(e: DragEvent) => dragging(e, false)}
      onDrop={(event: DragEvent) => {
        event.preventDefault();
        setOver(false);
        take(event.dataTransfer.files);
      }}
      style={{
        display: 'block',
        cursor: disabled ? 'not-allowed' : 'pointer',
        opacity: disabled ? 0.6 : 1,
        borderStyle: 'dashed',
        borderWidth: 2,
        borderColor: over || focused ? 'var(--mantine-color-blue-6)' : undefined,
        background: over ? 'var(--mantine-color-blue-light)' : undefined,
      }}
      data-dragging={over || undefined}
    >
      <VisuallyHidden>
        <input
          ref={input}
          id={id}
          type="file"
          accept={accept}
          disabled={disabled}
          aria-label={label}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
          onChange={(event) => {
            take(event.currentTarget.files);
            // The same file chosen again (after fixing it) is a new choice.
            event.currentTarget.value = '';
          }}
        />
      </VisuallyHidden>
      <Group justify="center" gap="lg" mih={120}>
        {over ? (
          <IconUpload size={48} color="var(--mantine-color-blue-6)" aria-hidden="true" />
        ) : (
          <IconFileTypeCsv size={48} color="var(--mantine-color-dimmed)" aria-hidden="true" />
        )}
        <div>
          <Text size="lg">{label}</Text>
          <Text size="sm" c="dimmed">
            {hint}
          </Text>
          {children}
        </div>
      </Group>
    </Paper>
  );
}
