import { Switch, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Domain } from '@berth/contracts';
import { useDomainUpdate } from '../../../api/domains.ts';
import { describeError } from '../../../forms/validation.ts';

/**
 * Auto-renewal of one domain (on by default): the billing pass renews it from the owner's credit
 * before it expires; switched off, its owner renews by hand after the reminders.
 */
export function AutoRenewSwitch({ domain }: { domain: Pick<Domain, 'id' | 'auto_renew'> }) {
  const { t } = useTranslation();
  const update = useDomainUpdate(domain.id);
  return (
    <div>
      <Switch
        checked={domain.auto_renew}
        disabled={update.isPending}
        onChange={(event) => update.mutate({ auto_renew: event.currentTarget.checked })}
        label={domain.auto_renew ? t('domains.overview.autoRenewOn') : t('domains.overview.autoRenewOff')}
      />
      {update.isError ? (
        <Text fz="xs" c="red.8" mt={4}>
          {describeError(update.error, t)}
        </Text>
      ) : null}
    </div>
  );
}
