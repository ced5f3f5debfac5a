// The detector named by Translation:AutoDetect.
import type { DetectorConfig } from '../config/normalize-config.ts';
import type { Detector } from './detector.ts';
import { FastTextDetector } from './fasttext-detector.ts';
import { HeuristicDetector } from './heuristic-detector.ts';

export function createDetector(config: DetectorConfig): Detector {
  switch (config.type) {
    case 'heuristic':
      return new HeuristicDetector();
    case 'fasttext':
      return new FastTextDetector(config.path);
  }
}
