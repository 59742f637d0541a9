#!/usr/bin/env bash
# The receipt-reading engines and their bench (issue 37, decision 0198), idempotently:
# - Tesseract from Debian (tesseract-ocr and the hrv, slv, slk, ces, pol, deu, eng languages): the engine
#   readReceipt uses, one child process per image; zbar-tools (zbarimg) for the fiscal QR codes; the
#   fonts the labelled set is rendered with (DejaVu, Liberation, FreeFont);
# - .tools/receipts-venv (PyPI, pinned): the set's generator (Pillow, numpy, qrcode) and PP-OCR as shipped
#   inside the rapidocr wheel, the bench's second engine. Its ONNX models come in the wheel (nothing is
#   downloaded at run time) and are checked against the digests below.
# A present install says so in one line, without network.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.tools/receipts-venv"
REQUIREMENTS=(rapidocr==3.10.0 onnxruntime==1.32.0 pillow==13.0.0 numpy==2.4.6 qrcode==8.2)
MODELS_SHA256="090f04abcd9d9a7498bc4ebf677e4cb9bdce1fe4197ddb7e529f1ef44e1ff94f  PP-OCRv6_det_small.onnx
6f327246b50388f3c176ae304bd95767ea6dc0c9ae92153ef8cbe210b3c14884  PP-OCRv6_rec_small.onnx
e47acedf663230f8863ff1ab0e64dd2d82b838fceb5957146dab185a89d6215c  ch_ppocr_mobile_v2.0_cls_mobile.onnx"
DEBS=(tesseract-ocr tesseract-ocr-hrv tesseract-ocr-slv tesseract-ocr-slk tesseract-ocr-ces tesseract-ocr-pol
  tesseract-ocr-deu tesseract-ocr-eng zbar-tools fonts-dejavu-core fonts-liberation fonts-freefont-ttf)

say() { printf '[bootstrap] %s\n' "$*"; }
# shellcheck source=lib/installs.sh
source "$ROOT/scripts/lib/installs.sh"

missing=()
for p in "${DEBS[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -eq 0 ]; then
  say "tesseract-ocr (hrv slv slk ces pol deu eng), zbar-tools and the fonts present"
else
  say "installing ${missing[*]} from Debian (apt-get)"
  apt_install --no-install-recommends "${missing[@]}"
fi

pinned_venv "$VENV" -- "${REQUIREMENTS[@]}"
if [ "$PINNED_VENV_BUILT" = 0 ]; then
  say "rapidocr and the set generator present in .tools/receipts-venv"
  exit 0
fi
MODELS="$("$VENV/bin/python" -c 'import os, rapidocr; print(os.path.join(os.path.dirname(rapidocr.__file__), "models"))')"
(cd "$MODELS" && echo "$MODELS_SHA256" | sha256sum --check --quiet) \
  || { say "rapidocr's bundled models do not match their digests"; rm -rf "$(readlink -f "$VENV")" "$VENV"; exit 1; }
