import { Button, CopyButton, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/** A small button that copies `value`, saying so in its tooltip for two seconds. */
export function CopyValueButton({ value, label, copiedLabel }: { value: string; label: string; copiedLabel: string }) {
  return (
    <CopyButton value={value} timeout={2000}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? copiedLabel : label} withArrow>
          <Button variant="default" size="xs" px={8} onClick={copy} aria-label={label}>
            {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
          </Button>
        </Tooltip>
      )}
    </CopyButton>
  );
}
