import { useEffect, useRef } from 'react';
import { DOMAIN_DROPDOWN_ROW_PX } from '@berth/contracts';
import { DomainOptionRow } from './DomainOptionRow.tsx';
import { VISIBLE_ROWS, type DomainListboxProps } from './domainListboxProps.ts';
import classes from './DomainSelector.module.css';

/** Every option in the DOM: fine up to DOMAIN_DROPDOWN_VIRTUAL_THRESHOLD. */
export function PlainDomainListbox({ id, label, options, selectedId, activeIndex, scrollToActive, onPick, onHover }: DomainListboxProps) {
  const listRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!scrollToActive) return;
    const option = listRef.current?.children[activeIndex];
    option?.scrollIntoView({ block: 'nearest' });
  }, [activeIndex, scrollToActive]);

  return (
    <div
      ref={listRef}
      id={id}
      role="listbox"
      aria-label={label}
      className={classes.listbox}
      style={{ maxHeight: VISIBLE_ROWS * DOMAIN_DROPDOWN_ROW_PX }}
      data-virtual="false"
    >
      {options.map((domain, index) => (
        <DomainOptionRow
          key={domain.id}
          domain={domain}
          index={index}
          total={options.length}
          active={index === activeIndex}
          selected={domain.id === selectedId}
          onPick={onPick}
          onHover={onHover}
        />
      ))}
    </div>
  );
}
