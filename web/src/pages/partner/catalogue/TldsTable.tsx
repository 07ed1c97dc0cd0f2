import { useState } from 'react';
import { Badge, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TldPrice } from '@berth/contracts';
import { useTldDelete } from '../../../api/catalogue.ts';
import classes from '../../Pages.module.css';
import accountClasses from '../../account/Account.module.css';
import { DeleteConfirm } from './DeleteConfirm.tsx';
import { PriceCell } from './PriceCell.tsx';
import { RowActions } from './RowActions.tsx';

/** The domain endings the tenant sells with their yearly prices; a card per TLD on a phone. */
export function TldsTable({ tlds, onEdit }: { tlds: TldPrice[]; onEdit: (tld: TldPrice) => void }) {
  const { t } = useTranslation();
  const remove = useTldDelete();
  const [deleting, setDeleting] = useState<TldPrice | null>(null);

  if (tlds.length === 0) {
    return (
      <Text c="dimmed" fz="sm" ta="center" py="md">
        {t('catalogue.tlds.none')}
      </Text>
    );
  }
  return (
    <>
      <table className={accountClasses.table} data-testid="tld-list">
        <thead>
          <tr>
            <th scope="col">{t('catalogue.tlds.tld')}</th>
            <th scope="col">{t('catalogue.tlds.register')}</th>
            <th scope="col">{t('catalogue.tlds.renew')}</th>
            <th scope="col">{t('catalogue.tlds.transfer')}</th>
            <th scope="col">
              <span className={accountClasses.visuallyHidden}>{t('catalogue.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tlds.map((tld) => (
            <tr key={tld.id} data-testid="tld-row">
              <td>
                <Group gap="xs">
                  <Text fw={650} fz="sm" className={accountClasses.mono}>
                    .{tld.tld}
                  </Text>
                  {tld.active ? null : (
                    <Badge color="gray" variant="light" size="sm" radius="sm" className={classes.badge}>
                      {t('catalogue.inactive')}
                    </Badge>
                  )}
                </Group>
              </td>
              <td data-label={t('catalogue.tlds.register')}>
                <PriceCell price={tld.register} />
              </td>
              <td data-label={t('catalogue.tlds.renew')}>
                <PriceCell price={tld.renew} />
              </td>
              <td data-label={t('catalogue.tlds.transfer')}>
                <PriceCell price={tld.transfer} />
              </td>
              <td className={accountClasses.actionCell}>
                <RowActions
                  name={`.${tld.tld}`}
                  onEdit={() => {
                    onEdit(tld);
                  }}
                  onDelete={() => {
                    setDeleting(tld);
                  }}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <DeleteConfirm
        target={deleting ? { id: deleting.id, name: deleting.tld } : null}
        title={t('catalogue.tlds.deleteTitle', { tld: deleting?.tld ?? '' })}
        body={t('catalogue.tlds.deleteBody')}
        remove={remove}
        onClose={() => {
          setDeleting(null);
        }}
      />
    </>
  );
}
