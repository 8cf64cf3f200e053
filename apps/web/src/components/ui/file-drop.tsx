import { Group, Paper, Text } from '@mantine/core';
import { IconFileTypeCsv, IconUpload } from '@tabler/icons-react';
import { useId, useRef, useState, type CSSProperties, type DragEvent, type ReactNode } from 'react';

/**
 * The file input hidden by its own box. Wrapped in Mantine's VisuallyHidden instead, it kept its
 * natural width (about 350 px) and made upload pages wider than a phone's screen; sized 1 px
 * itself and placed against the drop area (`position: relative`), it takes no room, and the
 * keyboard and screen readers still reach it.
 */
const HIDDEN_INPUT: CSSProperties = {
  position: 'absolute',
  top: 0,
  left: 0,
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  clipPath: 'inset(50%)',
  whiteSpace: 'nowrap',
};

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
        position: 'relative',
        cursor: disabled ? 'not-allowed' : 'pointer',
        opacity: disabled ? 0.6 : 1,
        borderStyle: 'dashed',
        borderWidth: 2,
        borderColor: over || focused ? 'var(--mantine-color-blue-6)' : undefined,
        background: over ? 'var(--mantine-color-blue-light)' : undefined,
      }}
      data-dragging={over || undefined}
    >
      <input
        ref={input}
        id={id}
        type="file"
        accept={accept}
        disabled={disabled}
        aria-label={label}
        style={HIDDEN_INPUT}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        onChange={(event) => {
          take(event.currentTarget.files);
          // The same file chosen again (after fixing it) is a new choice.
          event.currentTarget.value = '';
        }}
      />
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
