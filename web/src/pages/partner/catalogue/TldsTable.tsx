import { Badge, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TldPrice } from '@berth/contracts';
import { useTldDelete } from '../../../api/catalogue.ts';
import classes from '../../Pages.module.css';
import accountClasses from '../../account/Account.module.css';
import { CatalogueTable } from './CatalogueTable.tsx';
import { PriceCell } from './PriceCell.tsx';

/** The domain endings the tenant sells with their yearly prices; a card per TLD on a phone. */
export function TldsTable({ tlds, onEdit }: { tlds: TldPrice[]; onEdit: (tld: TldPrice) => void }) {
  const { t } = useTranslation();
  const remove = useTldDelete();
  return (
    <CatalogueTable
      rows={tlds}
      testId="tld"
      empty={t('catalogue.tlds.none')}
      head={{
        label: t('catalogue.tlds.tld'),
        cell: (tld) => (
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
        ),
      }}
      columns={[
        { label: t('catalogue.tlds.register'), cell: (tld) => <PriceCell price={tld.register} /> },
        { label: t('catalogue.tlds.renew'), cell: (tld) => <PriceCell price={tld.renew} /> },
        { label: t('catalogue.tlds.transfer'), cell: (tld) => <PriceCell price={tld.transfer} /> },
      ]}
      actionsLabel={t('catalogue.actions')}
      name={(tld) => `.${tld.tld}`}
      remove={remove}
      deleteTitle={(tld) => t('catalogue.tlds.deleteTitle', { tld: tld?.tld ?? '' })}
      deleteBody={t('catalogue.tlds.deleteBody')}
      onEdit={onEdit}
    />
  );
}
