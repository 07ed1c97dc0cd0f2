import { useState } from 'react';
import { Avatar, Button, Group, Modal, Select, Stack, Text, ThemeIcon } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconUserMinus, IconUserPlus, IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TenantDetail, UserRef } from '@berth/contracts';
import { useTenantAdminChange, useTenantCustomerSearch } from '../../../api/tenants.ts';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { useScrollLock } from '../../../components/useScrollLock.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { describeError } from '../../../forms/validation.ts';
import { Section } from '../../PageHeader.tsx';
import tenantClasses from './Tenants.module.css';

/** The tenant's host admins: each can be made a customer again; a customer of the tenant can be made one. */
export function TenantAdmins({ tenant }: { tenant: TenantDetail }) {
  const { t } = useTranslation();
  const change = useTenantAdminChange(tenant.id);
  const [removing, setRemoving] = useState<UserRef | null>(null);
  useScrollLock(removing !== null);

  const onChanged = (message: string | undefined) => {
    pushMessage({ type: 'notice', data: message ?? t('tenants.saved'), timeout: NOTICE_TIMEOUT_MS });
  };

  return (
    <Section id="tenant-admins" title={t('tenants.admins.title')} description={t('tenants.admins.description')}>
      {change.isError ? (
        <FormAlert kind="error" onClose={() => change.reset()}>
          {describeError(change.error, t)}
        </FormAlert>
      ) : null}
      {tenant.admins.length === 0 ? (
        <Group gap="sm" className={tenantClasses.emptyAdmins}>
          <ThemeIcon size={36} radius="xl" variant="light" color="gray" aria-hidden>
            <IconUsers size={18} stroke={1.6} />
          </ThemeIcon>
          <Text fz="sm" c="dimmed">
            {t('tenants.admins.none')}
          </Text>
        </Group>
      ) : (
        <ul className={tenantClasses.adminList} aria-label={t('tenants.admins.listLabel', { title: tenant.title })}>
          {tenant.admins.map((admin) => (
            <li key={admin.id} className={tenantClasses.adminItem}>
              <Group gap="sm" wrap="nowrap" className={tenantClasses.adminWho}>
                <Avatar name={admin.display_name} color="harbor" radius="xl" size={36} alt="" />
                <div className={tenantClasses.adminText}>
                  <Text fw={600} fz="sm" className={tenantClasses.breakable}>
                    {admin.display_name}
                  </Text>
                  <Text fz="xs" c="dimmed" className={tenantClasses.breakable}>
                    {admin.email}
                  </Text>
                </div>
              </Group>
              <Button
                size="xs"
                variant="default"
                color="red"
                leftSection={<IconUserMinus size={14} aria-hidden />}
                aria-label={t('tenants.admins.removeNamed', { name: admin.display_name })}
                onClick={() => {
                  setRemoving(admin);
                }}
              >
                {t('tenants.admins.remove')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <AssignAdmin
        tenant={tenant}
        pending={change.isPending}
        onAssign={(userId) => change.mutate({ userId, admin: true }, { onSuccess: (answer) => onChanged(answer.message) })}
      />

      <Modal
        opened={removing !== null}
        onClose={() => {
          setRemoving(null);
        }}
        title={t('tenants.admins.confirmTitle')}
        radius="lg"
        lockScroll={false}
        closeButtonProps={{ 'aria-label': t('app.close') }}
      >
        <Stack gap="md">
          <Text fz="sm">{t('tenants.admins.confirmBody', { name: removing?.display_name ?? '', email: removing?.email ?? '' })}</Text>
          <Group justify="flex-end" gap="sm">
            <Button
              variant="default"
              onClick={() => {
                setRemoving(null);
              }}
            >
              {t('app.cancel')}
            </Button>
            <Button
              color="red.9"
              loading={change.isPending}
              onClick={() => {
                if (!removing) return;
                change.mutate(
                  { userId: removing.id, admin: false },
                  {
                    onSuccess: (answer) => onChanged(answer.message),
                    onSettled: () => {
                      setRemoving(null);
                    },
                  },
                );
              }}
            >
              {t('tenants.admins.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Section>
  );
}

/** Picks a customer of this tenant (searched on the server by e-mail or name) and makes them its host admin. */
function AssignAdmin({ tenant, pending, onAssign }: { tenant: TenantDetail; pending: boolean; onAssign: (userId: number) => void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<{ value: string; label: string } | null>(null);
  // Picking an option puts its label into the search box: that is not a new search.
  const [debounced] = useDebouncedValue(picked && search === picked.label ? '' : search, 250);
  const candidates = useTenantCustomerSearch(tenant.id, debounced);
  const found = (candidates.data ?? []).map((customer) => ({
    value: String(customer.id),
    label: `${customer.contact.display_name} <${customer.email}>`,
  }));
  const options = picked && !found.some((option) => option.value === picked.value) ? [picked, ...found] : found;

  return (
    <form
      className={tenantClasses.assign}
      onSubmit={(event) => {
        event.preventDefault();
        if (picked) {
          onAssign(Number(picked.value));
          setPicked(null);
          setSearch('');
        }
      }}
    >
      <Select
        className={tenantClasses.grow}
        label={t('tenants.admins.assignLabel')}
        description={t('tenants.admins.assignHint')}
        placeholder={t('tenants.admins.assignPlaceholder')}
        searchable
        clearable
        data={options}
        value={picked?.value ?? null}
        onChange={(value, option) => {
          setPicked(value === null ? null : { value: option.value, label: option.label });
        }}
        searchValue={search}
        onSearchChange={setSearch}
        // The server already matched the search (prefix of e-mail or name).
        filter={({ options: all }) => all}
        nothingFoundMessage={candidates.isFetching ? t('app.loading') : t('tenants.admins.noCandidates')}
        // Hidden while detached, the list vanished for good on phones: at the end of a short page
        // the list changes the page's height as it fills, the page moves the field out of view,
        // and the list did not come back when the field did.
        comboboxProps={{ withinPortal: true, hideDetached: false }}
        error={candidates.isError ? describeError(candidates.error, t) : undefined}
      />
      <Button type="submit" leftSection={<IconUserPlus size={16} aria-hidden />} disabled={!picked} loading={pending}>
        {t('tenants.admins.assign')}
      </Button>
    </form>
  );
}
