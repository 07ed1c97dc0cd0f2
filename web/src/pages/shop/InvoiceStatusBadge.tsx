import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { InvoiceListItem } from '@berth/contracts';
import classes from '../Pages.module.css';

const COLOR = { paid: 'green', unpaid: 'yellow', cancelled: 'gray' } as const;

export function InvoiceStatusBadge({ status }: { status: InvoiceListItem['status'] }) {
  const { t } = useTranslation();
  return (
    <Badge variant="dot" color={COLOR[status]} radius="sm" size="md" className={classes.badge}>
      {t(`invoices.status.${status}`)}
    </Badge>
  );
}
