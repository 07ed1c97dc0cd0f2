import { Button, Group } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Edit and Delete of one catalogue row, named after the row for screen readers. */
export function RowActions({ name, onEdit, onDelete }: { name: string; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="nowrap" justify="flex-end">
      <Button
        size="xs"
        variant="default"
        leftSection={<IconPencil size={14} aria-hidden />}
        aria-label={t('catalogue.editNamed', { name })}
        onClick={onEdit}
      >
        {t('catalogue.edit')}
      </Button>
      <Button
        size="xs"
        variant="default"
        color="red"
        leftSection={<IconTrash size={14} aria-hidden />}
        aria-label={t('catalogue.deleteNamed', { name })}
        onClick={onDelete}
      >
        {t('catalogue.delete')}
      </Button>
    </Group>
  );
}
