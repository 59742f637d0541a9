#!/usr/bin/env python3
"""PP-OCR (the ONNX models inside the PyPI rapidocr wheel) for the receipt bench: one JSON request a line on
stdin ({"op":"read","png":base64} or {"op":"version"}), one JSON answer a line on stdout. One thread."""
import base64
import io
import json
import sys
import time

import numpy as np
from PIL import Image
from rapidocr import RapidOCR
from importlib.metadata import version

VERSION = version("rapidocr")

engine = RapidOCR(params={'Global.log_level': 'critical', 'EngineConfig.onnxruntime.intra_op_num_threads': 1,
                          'EngineConfig.onnxruntime.inter_op_num_threads': 1})


def lines_of(result):
    """Boxes grouped into text lines, top to bottom: boxes whose vertical centres are close share a line."""
    if result.boxes is None or result.txts is None:
        return [], 0.0
    items = []
    for box, txt, score in zip(result.boxes, result.txts, result.scores):
        ys = [p[1] for p in box]
        xs = [p[0] for p in box]
        items.append(((min(ys) + max(ys)) / 2, max(ys) - min(ys), min(xs), txt, score))
    items.sort()
    lines, current, cy, ch = [], [], None, None
    for y, h, x, txt, score in items:
        if cy is not None and abs(y - cy) > 0.5 * max(h, ch):
            lines.append(' '.join(t for _, t in sorted(current)))
            current = []
        if not current:
            cy, ch = y, h
        current.append((x, txt))
    if current:
        lines.append(' '.join(t for _, t in sorted(current)))
    return lines, 100.0 * float(np.mean(result.scores)) if len(items) >= 3 else 0.0


for raw in sys.stdin:
    req = json.loads(raw)
    try:
        if req['op'] == 'version':
            print(json.dumps({'version': VERSION}), flush=True)
            continue
        t = time.process_time()
        img = np.asarray(Image.open(io.BytesIO(base64.b64decode(req['png']))).convert('RGB'))
        lines, quality = lines_of(engine(img))
        print(json.dumps({'lines': lines, 'quality': quality, 'cpu': time.process_time() - t}), flush=True)
    except Exception as e:  # the bench counts it as that receipt's failure, and goes on
        print(json.dumps({'error': repr(e)}), flush=True)
