import type { DomainOption } from '@berth/contracts';

/** Rows in view before the list scrolls. */
export const VISIBLE_ROWS = 8;

export interface DomainListboxProps {
  id: string;
  label: string;
  options: readonly DomainOption[];
  selectedId: number | null;
  activeIndex: number;
  /** Bring the active option into view (keyboard moves do; hovering must not scroll). */
  scrollToActive: boolean;
  onPick: (domain: DomainOption) => void;
  onHover: (index: number) => void;
}
