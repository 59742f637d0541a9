import type { Market } from '@travel/regulations';

export interface OcrResult {
  /** Text lines top to bottom. */
  lines: string[];
  /** 0..100: the engine's mean word confidence, to tell text from noise and the right way up from not. */
  quality: number;
  /** CPU seconds the engine spent outside this process, where it knows (a long-lived sidecar). */
  cpuSeconds?: number;
}

export interface OcrEngine {
  /** The engine and its version, as a reading records it. */
  name(): Promise<string>;
  recognise(png: Buffer, market: Market | undefined, signal?: AbortSignal): Promise<OcrResult>;
}
