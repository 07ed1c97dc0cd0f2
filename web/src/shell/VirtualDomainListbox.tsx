import { useEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { DOMAIN_DROPDOWN_ROW_PX } from '@berth/contracts';
import { DomainOptionRow } from './DomainOptionRow.tsx';
import { VISIBLE_ROWS, type DomainListboxProps } from './domainListboxProps.ts';
import classes from './DomainSelector.module.css';

const LIST_MAX_PX = VISIBLE_ROWS * DOMAIN_DROPDOWN_ROW_PX;

/** Only the rows in view (plus a few) are in the DOM, so 5,000 domains open instantly. */
export function VirtualDomainListbox({ id, label, options, selectedId, activeIndex, scrollToActive, onPick, onHover }: DomainListboxProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // TanStack Virtual keeps its own state outside React's; the compiler lint knows it as such.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: options.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => DOMAIN_DROPDOWN_ROW_PX,
    overscan: 6,
    // The popover's first frame renders rows before the list has been measured.
    initialRect: { width: 280, height: LIST_MAX_PX },
  });

  useEffect(() => {
    if (scrollToActive) virtualizer.scrollToIndex(activeIndex, { align: 'auto' });
  }, [activeIndex, scrollToActive, virtualizer]);

  return (
    <div
      ref={scrollRef}
      id={id}
      role="listbox"
      aria-label={label}
      className={classes.listbox}
      style={{ height: Math.min(LIST_MAX_PX, virtualizer.getTotalSize()) }}
      data-virtual="true"
    >
      <div role="presentation" className={classes.sizer} style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => {
          const domain = options[row.index];
          if (!domain) return null;
          return (
            <DomainOptionRow
              key={domain.id}
              domain={domain}
              index={row.index}
              total={options.length}
              active={row.index === activeIndex}
              selected={domain.id === selectedId}
              onPick={onPick}
              onHover={onHover}
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                right: 0,
                transform: `translateY(${row.start}px)`,
              }}
            />
          );
        })}
      </div>
    </div>
  );
}
