import { Badge, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { BANK_STATEMENT_LINE_STATUSES, type BankStatementAnswer, type BankStatementLineStatus } from '@berth/contracts';
import { formatMoney } from '../shop/money.ts';
import classes from '../Pages.module.css';
import accountClasses from '../account/Account.module.css';
import shopClasses from '../shop/Shop.module.css';

const COLOR: Record<BankStatementLineStatus, string> = {
  matched: 'green',
  already_paid: 'gray',
  no_match: 'yellow',
  amount_mismatch: 'orange',
  ignored: 'gray',
  invalid: 'red',
};

/** What became of each line of an imported bank statement. */
export function BankStatementResults({ answer }: { answer: BankStatementAnswer }) {
  const { t } = useTranslation();
  const { lines, counts } = answer.data;
  return (
    <>
      <Group gap="xs" data-testid="statement-counts">
        {BANK_STATEMENT_LINE_STATUSES.filter((status) => (counts[status] ?? 0) > 0).map((status) => (
          <Badge key={status} color={COLOR[status]} variant="light" radius="sm" className={classes.badge}>
            {t(`invoices.admin.line.${status}`)}: {counts[status]}
          </Badge>
        ))}
      </Group>
      <table className={accountClasses.table} data-testid="statement-lines">
        <thead>
          <tr>
            <th scope="col">{t('invoices.admin.lineNo')}</th>
            <th scope="col">{t('invoices.admin.reference')}</th>
            <th scope="col">{t('invoices.date')}</th>
            <th scope="col" className={shopClasses.numeric}>
              {t('invoices.total')}
            </th>
            <th scope="col">{t('invoices.statusLabel')}</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => (
            <tr key={line.line} data-testid="statement-line">
              <td>
                <Text fz="sm" fw={600}>
                  {t('invoices.admin.lineLabel', { line: line.line })}
                </Text>
                <Text fz="xs" c="dimmed" className={accountClasses.breakable}>
                  {line.counterparty}
                </Text>
              </td>
              <td data-label={t('invoices.admin.reference')}>
                <span className={accountClasses.mono}>{line.reference || '—'}</span>
              </td>
              <td data-label={t('invoices.date')}>{line.date}</td>
              <td data-label={t('invoices.total')} className={shopClasses.numeric}>
                {line.amount === null ? '—' : formatMoney(line.amount, line.currency)}
              </td>
              <td data-label={t('invoices.statusLabel')}>
                <Badge color={COLOR[line.status]} variant="light" radius="sm" className={classes.badge}>
                  {t(`invoices.admin.line.${line.status}`)}
                </Badge>
                {line.invoice_number ? (
                  <Text fz="xs" c="dimmed">
                    {line.invoice_number}
                  </Text>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
