import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FileDrop } from './file-drop';

const renderDrop = (onFile: (file: File) => void, disabled = false) =>
  render(
    <MantineProvider env="test">
      <FileDrop label="Drop a CSV file here" hint="Up to 50 MB" accept=".csv" onFile={onFile} disabled={disabled} />
    </MantineProvider>,
  );

describe('FileDrop', () => {
  it('takes a file dropped on it', () => {
    const onFile = vi.fn();
    renderDrop(onFile);
    const file = new File(['Email\n'], 'payers.csv', { type: 'text/csv' });
    const area = screen.getByText('Drop a CSV file here').closest('label')!;
    fireEvent.dragOver(area, { dataTransfer: { files: [file] } });
    expect(area).toHaveAttribute('data-dragging', 'true');
    fireEvent.drop(area, { dataTransfer: { files: [file] } });
    expect(onFile).toHaveBeenCalledWith(file);
    expect(area).not.toHaveAttribute('data-dragging');
  });

  it('is a file input the keyboard reaches, named by its label', async () => {
    const onFile = vi.fn();
    renderDrop(onFile);
    const input = screen.getByLabelText('Drop a CSV file here');
    await userEvent.tab();
    expect(input).toHaveFocus();
    const file = new File(['Email\n'], 'payers.csv', { type: 'text/csv' });
    await userEvent.upload(input as HTMLInputElement, file);
    expect(onFile).toHaveBeenCalledWith(file);
  });

  it('takes nothing while disabled', () => {
    const onFile = vi.fn();
    renderDrop(onFile, true);
    const area = screen.getByText('Drop a CSV file here').closest('label')!;
    fireEvent.drop(area, { dataTransfer: { files: [new File(['x'], 'x.csv')] } });
    expect(onFile).not.toHaveBeenCalled();
  });
});

describe('FileDrop on a narrow screen', () => {
  it('hides the file input in a 1 px box placed against the drop area, so it adds no width to the page', () => {
    renderDrop(vi.fn());
    const input = screen.getByLabelText('Drop a CSV file here');
    expect(input).toHaveStyle({ position: 'absolute', width: '1px', height: '1px', overflow: 'hidden' });
    expect(input.parentElement).toBe(screen.getByText('Drop a CSV file here').closest('label'));
    expect(input.parentElement).toHaveStyle({ position: 'relative' });
  });
});
