import type { CSSProperties } from 'react';
import { IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DOMAIN_DROPDOWN_ROW_PX, type DomainOption } from '@berth/contracts';
import { formatDate } from '../components/formatDate.ts';
import classes from './DomainSelector.module.css';

export const optionId = (domain: DomainOption): string => `domain-option-${domain.id}`;

interface DomainOptionRowProps {
  domain: DomainOption;
  index: number;
  total: number;
  active: boolean;
  selected: boolean;
  onPick: (domain: DomainOption) => void;
  onHover: (index: number) => void;
  /** Position within a virtual list; plain lists leave the row in the flow. */
  style?: CSSProperties;
}

/** One option of the domain listbox, DOMAIN_DROPDOWN_ROW_PX (37 px) high. */
export function DomainOptionRow({ domain, index, total, active, selected, onPick, onHover, style }: DomainOptionRowProps) {
  const { t } = useTranslation();
  return (
    <div
      id={optionId(domain)}
      role="option"
      aria-selected={selected}
      // A virtual list holds only a window of the options: say where this one is.
      aria-setsize={total}
      aria-posinset={index + 1}
      className={classes.option}
      data-active={active || undefined}
      data-selected={selected || undefined}
      style={{ ...style, height: DOMAIN_DROPDOWN_ROW_PX }}
      // Keep the focus in the search field; the click picks.
      onMouseDown={(event) => {
        event.preventDefault();
      }}
      onClick={() => {
        onPick(domain);
      }}
      onMouseMove={() => {
        if (!active) onHover(index);
      }}
    >
      <span className={classes.optionText}>{domain.text}</span>
      <span className={classes.optionMeta}>
        {domain.expire_at ? t('domainSelector.expires', { date: formatDate(domain.expire_at) }) : t('domainSelector.noExpiry')}
      </span>
      {selected ? <IconCheck size={16} aria-hidden className={classes.check} /> : null}
    </div>
  );
}
