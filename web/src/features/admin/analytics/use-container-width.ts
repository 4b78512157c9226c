import { useLayoutEffect, useRef, useState } from 'react';

/** Where nothing measures (a test's jsdom): a phone-sized chart still draws. */
const UNMEASURED_WIDTH = 360;

/** The width of an element, followed as it changes, so a chart draws to its container and never scrolls sideways. */
export function useContainerWidth<E extends HTMLElement>() {
  const ref = useRef<E>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    if (typeof ResizeObserver === 'undefined') {
      setWidth(element.clientWidth || UNMEASURED_WIDTH);
      return;
    }
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry?.contentRect.width ?? 0)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}
