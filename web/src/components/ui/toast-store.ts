import { useSyncExternalStore } from 'react';
import { TOAST_DURATION_MS, TOAST_LIMIT } from '../../../../common/constants.js';

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
}

export interface ToastItem extends ToastInput {
  id: number;
  variant: ToastVariant;
}

/*
 * A module-level store rather than React context so `toast()` works from anywhere:
 * mutation callbacks, the API client, plain functions.
 */
let toasts: readonly ToastItem[] = [];
let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();
const listeners = new Set<() => void>();

function emit(next: readonly ToastItem[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

export function dismissToast(id: number): void {
  const timer = timers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  timers.delete(id);
  if (toasts.some((t) => t.id === id)) emit(toasts.filter((t) => t.id !== id));
}

/** Shows a toast; with TOAST_LIMIT 1 a new toast replaces the one on screen. */
export function toast({ title, description, variant = 'default' }: ToastInput): { id: number; dismiss: () => void } {
  const id = nextId++;
  const kept = [{ id, title, description, variant }, ...toasts].slice(0, TOAST_LIMIT);
  // Toasts pushed out by the limit must not leave timers behind.
  for (const old of toasts) {
    if (kept.some((t) => t.id === old.id)) continue;
    clearTimeout(timers.get(old.id));
    timers.delete(old.id);
  }
  timers.set(
    id,
    setTimeout(() => dismissToast(id), TOAST_DURATION_MS),
  );
  emit(kept);
  return { id, dismiss: () => dismissToast(id) };
}

/** Removes every toast and timer (tests, logout). */
export function clearToasts(): void {
  for (const timer of timers.values()) clearTimeout(timer);
  timers.clear();
  emit([]);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function snapshot(): readonly ToastItem[] {
  return toasts;
}

export function useToasts(): readonly ToastItem[] {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
