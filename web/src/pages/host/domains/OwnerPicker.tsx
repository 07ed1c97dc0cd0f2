import { useMemo, useState } from 'react';
import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconUser } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { UserRef } from '@berth/contracts';
import { useOwnerSearch } from '../../../api/domains.ts';

/** Label of an owner in the picker: name and e-mail, or the e-mail alone when that is the name. */
export const ownerLabel = (owner: { email: string; display_name: string }): string =>
  owner.display_name && owner.display_name !== owner.email ? `${owner.display_name} (${owner.email})` : owner.email;

interface OwnerPickerProps {
  /** The chosen owner's id as a string ('' for none: the admin owns it). */
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  /** Who owns the domain now (shown before any search). */
  current?: UserRef | undefined;
  error?: string | undefined;
  description?: string;
  clearable?: boolean;
}

/**
 * An admin picks a domain's owner among their customers: a search by e-mail or name prefix on
 * GET /api/system/customers (thousands of customers do not fit a dropdown).
 */
export function OwnerPicker({ value, onChange, onBlur, current, error, description, clearable = false }: OwnerPickerProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<UserRef | undefined>(current);
  const [debounced] = useDebouncedValue(search, 250);
  const selected = chosen && String(chosen.id) === value ? chosen : current && String(current.id) === value ? current : undefined;
  // After a pick the input shows the owner's label: that is not a new search.
  const term = selected && debounced === ownerLabel(selected) ? '' : debounced;
  const [opened, setOpened] = useState(false);
  const owners = useOwnerSearch(term, opened);

  const options = useMemo(() => {
    const found = (owners.data ?? []).map((customer) => ({
      value: String(customer.id),
      label: ownerLabel({ email: customer.email, display_name: customer.contact.display_name }),
    }));
    if (selected && !found.some((option) => option.value === String(selected.id))) {
      found.unshift({ value: String(selected.id), label: ownerLabel(selected) });
    }
    return found;
  }, [owners.data, selected]);

  return (
    <Select
      label={t('domains.fields.owner')}
      description={description}
      placeholder={t('domains.fields.ownerPlaceholder')}
      searchable
      clearable={clearable}
      data={options}
      value={value || null}
      onChange={(next) => {
        const customer = owners.data?.find((candidate) => String(candidate.id) === next);
        if (customer) setChosen({ id: customer.id, email: customer.email, display_name: customer.contact.display_name });
        else if (!next) setChosen(undefined);
        onChange(next ?? '');
      }}
      searchValue={search}
      onSearchChange={setSearch}
      // The server has filtered already (prefixes of e-mail, given name and surname).
      filter={({ options: all }) => all}
      onDropdownOpen={() => {
        setOpened(true);
      }}
      onBlur={onBlur}
      nothingFoundMessage={owners.isFetching ? t('domains.owner.searching') : t('domains.owner.none')}
      leftSection={<IconUser size={16} aria-hidden />}
      rightSection={owners.isFetching ? <Loader size={14} /> : undefined}
      error={error}
      comboboxProps={{ withinPortal: true }}
      data-testid="owner-picker"
    />
  );
}
