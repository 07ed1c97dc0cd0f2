import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Loader, Popover, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconSearch, IconSelector, IconWorld } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { DomainOption } from '@berth/contracts';
import { useLiveDomains } from '../api/shell.ts';
import { describeError } from '../forms/validation.ts';
import { domainFilter } from './domainFilter.ts';
import { DomainListbox } from './DomainListbox.tsx';
import { optionId } from './DomainOptionRow.tsx';
import classes from './DomainSelector.module.css';

/** Keys that move through the options by a page. */
const PAGE = 8;

interface DomainSelectorProps {
  selectedId: number | null;
  onPick: (domain: DomainOption) => void;
}

/**
 * The left menu's domain picker (docs/product.md §2 and §6): only live domains, searchable,
 * virtual above 100 options. A button opens a dialog with a search field (an ARIA combobox
 * whose active option follows the arrow keys) over the listbox.
 */
export function DomainSelector({ selectedId, onPick }: DomainSelectorProps) {
  const { t } = useTranslation();
  const listboxId = useId();
  const [opened, setOpened] = useState(false);
  const searchRef = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');
  const [activeIndex, setActiveIndex] = useState(0);
  const [scrollToActive, setScrollToActive] = useState(false);
  // The list loads when it is first needed: opening the picker, or a domain page naming one.
  const domains = useLiveDomains(opened || selectedId !== null);
  const all = domains.data;
  // Filtering 5,000 names takes well under a millisecond: no need to defer it.
  const options = useMemo(() => domainFilter(all ?? [], query), [all, query]);
  const selected = selectedId === null ? undefined : all?.find((domain) => domain.id === selectedId);
  const active = options[Math.min(activeIndex, options.length - 1)];

  const close = () => {
    setOpened(false);
    setQuery('');
    setActiveIndex(0);
  };

  const pick = (domain: DomainOption) => {
    close();
    onPick(domain);
  };

  const move = (index: number) => {
    setScrollToActive(true);
    setActiveIndex(Math.max(0, Math.min(options.length - 1, index)));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const current = Math.min(activeIndex, options.length - 1);
    switch (event.key) {
      case 'ArrowDown':
        move(current + 1);
        break;
      case 'ArrowUp':
        move(current - 1);
        break;
      case 'PageDown':
        move(current + PAGE);
        break;
      case 'PageUp':
        move(current - PAGE);
        break;
      case 'Enter':
        if (active) pick(active);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  const listLabel = t('domainSelector.listLabel');
  let body;
  if (domains.isPending) {
    body = (
      <div className={classes.state} role="status">
        <Loader size="xs" type="dots" aria-hidden />
        <span>{t('domainSelector.loading')}</span>
      </div>
    );
  } else if (domains.isError) {
    body = (
      <Text className={classes.state} role="alert" c="red" fz="sm">
        {describeError(domains.error, t)}
      </Text>
    );
  } else if (options.length === 0) {
    body = (
      <Text className={classes.state} fz="sm" c="dimmed">
        {all?.length ? t('domainSelector.noMatch') : t('domainSelector.none')}
      </Text>
    );
  } else {
    body = (
      <DomainListbox
        id={listboxId}
        label={listLabel}
        options={options}
        selectedId={selectedId}
        activeIndex={Math.min(activeIndex, options.length - 1)}
        scrollToActive={scrollToActive}
        onPick={pick}
        onHover={(index) => {
          setScrollToActive(false);
          setActiveIndex(index);
        }}
      />
    );
  }

  const hasList = !domains.isPending && options.length > 0;

  return (
    <Popover
      opened={opened}
      onChange={(next) => {
        if (next) setOpened(true);
        else close();
      }}
      position="bottom-start"
      width="target"
      shadow="md"
      radius="md"
      offset={6}
      trapFocus
      returnFocus
      // The trap's first focus (data-autofocus below) runs as the dropdown mounts; once, in CI on the
      // phone's menu drawer, the focus stayed on the trigger (e2e/specs/shell-domains.spec.ts, the
      // keyboard alone), so the search takes it again once the dropdown has faded in.
      transitionProps={{ transition: 'fade', duration: 150, onEntered: () => searchRef.current?.focus({ preventScroll: true }) }}
      withinPortal
      zIndex={400}
    >
      <Popover.Target>
        <UnstyledButton
          className={classes.trigger}
          data-testid="domain-selector"
          aria-label={t('domainSelector.trigger', {
            domain: selected?.text ?? t('domainSelector.placeholder'),
          })}
          // A controlled Popover leaves the click to its target.
          onClick={() => {
            if (opened) close();
            else setOpened(true);
          }}
        >
          <IconWorld size={18} stroke={1.7} aria-hidden className={classes.triggerIcon} />
          <span className={classes.triggerText} data-placeholder={selected ? undefined : true}>
            {selected?.text ?? t('domainSelector.placeholder')}
          </span>
          <IconSelector size={16} aria-hidden className={classes.triggerChevron} />
        </UnstyledButton>
      </Popover.Target>
      {/* Mantine names the dialog by its trigger ("Domain: …"). */}
      <Popover.Dropdown className={classes.dropdown}>
        <TextInput
          ref={searchRef}
          data-autofocus
          value={query}
          onChange={(event) => {
            setQuery(event.currentTarget.value);
            setActiveIndex(0);
            setScrollToActive(true);
          }}
          onKeyDown={onKeyDown}
          placeholder={t('domainSelector.search')}
          aria-label={t('domainSelector.search')}
          role="combobox"
          aria-expanded={hasList}
          aria-controls={hasList ? listboxId : undefined}
          aria-autocomplete="list"
          aria-activedescendant={hasList && active ? optionId(active) : undefined}
          autoComplete="off"
          spellCheck={false}
          // Escape closes this dropdown only, not the phone's menu drawer around it (Mantine's flag).
          data-mantine-stop-propagation="true"
          size="sm"
          leftSection={<IconSearch size={16} aria-hidden />}
          className={classes.search}
        />
        <Text fz="xs" c="dimmed" className={classes.count} role="status" data-testid="domain-count">
          {domains.isSuccess
            ? query.trim()
              ? t('domainSelector.matches', { count: options.length })
              : t('domainSelector.count', { count: options.length })
            : ''}
        </Text>
        {body}
      </Popover.Dropdown>
    </Popover>
  );
}
