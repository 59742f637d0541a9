#!/usr/bin/env python3
"""The labelled receipt set (issue 37, decision 0198): seeded, reproducible.

Renders receipts of the five markets in their languages and layouts with real fonts from Debian packages
(DejaVu, Liberation, FreeFont), writes the true fields in a JSON beside each, then makes them look
photographed: rotation, perspective, blur, noise, low light, a crumple shadow, JPEG. Some are upside down;
some are not receipts at all (a landscape, a blank page: truth Unreadable); Croatian receipts carry a real
fiscal QR (Pravilnik o fiskalizaciji u prometu gotovinom, čl. 18.a-18.c) and Slovenian ones the 60-digit
FURS code; a few are PDFs (text and scanned).

    python3 generate.py OUT_DIR [--per-market 44] [--seed 37]

Run with .tools/receipts-venv/bin/python (Pillow, numpy, qrcode; scripts/receipts-venv.sh).
"""
import argparse
import json
import math
import os
import random
import unicodedata
import zlib
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import qrcode
from PIL import Image, ImageDraw, ImageEnhance, ImageFilter, ImageFont

FONT_DIRS = ['/usr/share/fonts/truetype/dejavu', '/usr/share/fonts/truetype/liberation',
             '/usr/share/fonts/truetype/freefont']
MONO = ['DejaVuSansMono.ttf', 'LiberationMono-Regular.ttf', 'FreeMono.ttf']
MONO_BOLD = ['DejaVuSansMono-Bold.ttf', 'LiberationMono-Bold.ttf', 'FreeMonoBold.ttf']
SANS = ['DejaVuSans.ttf', 'LiberationSans-Regular.ttf', 'FreeSans.ttf']
COLS = 42


def font_path(name):
    for d in FONT_DIRS:
        p = os.path.join(d, name)
        if os.path.exists(p):
            return p
    raise SystemExit(f'font {name} missing (Debian: fonts-dejavu-core, fonts-liberation, fonts-freefont-ttf)')


# --- tax ids with valid check digits (the same rules the engine validates; decision 0199) -----------------
def oib(rng):
    digits = [rng.randint(1, 9)] + [rng.randint(0, 9) for _ in range(9)]
    a = 10
    for d in digits:
        a = (a + d) % 10 or 10
        a = (a * 2) % 11
    c = 11 - a
    return ''.join(map(str, digits)) + str(0 if c == 10 else c)


def si_davcna(rng):
    while True:
        digits = [rng.randint(1, 9)] + [rng.randint(0, 9) for _ in range(6)]
        s = sum(d * w for d, w in zip(digits, range(8, 1, -1)))
        c = 11 - s % 11
        if c <= 9:
            return ''.join(map(str, digits)) + str(c)


def ico(rng):
    digits = [rng.randint(0, 9) for _ in range(7)]
    digits[0] = rng.randint(1, 9) if rng.random() < 0.9 else 0
    s = sum(d * w for d, w in zip(digits, range(8, 1, -1)))
    return ''.join(map(str, digits)) + str((11 - s % 11) % 10)


def sk_dic(rng):
    while True:
        n = rng.randint(2020000000, 2129999999)
        if n % 11 == 0:
            return str(n)


def nip(rng):
    w = [6, 5, 7, 2, 3, 4, 5, 6, 7]
    while True:
        digits = [rng.randint(1, 9)] + [rng.randint(0, 9) for _ in range(8)]
        c = sum(d * x for d, x in zip(digits, w)) % 11
        if c != 10:
            return ''.join(map(str, digits)) + str(c)


# --- markets --------------------------------------------------------------------------------------------
MARKETS = {
    'HR': dict(currency='EUR', rates=['25', '13', '5'], total=['UKUPNO', 'ZA PLATITI', 'UKUPNO EUR'],
               vat='PDV', base='Osn.', cash='GOTOVINA', change='POVRAT', card='KARTICA',
               names=['KONZUM PLUS d.o.o.', 'Caffe bar Mali Raj', 'PEKARA DUBRAVICA', 'Restoran Stari Grad',
                      'INA d.d. BP Zagreb', 'Hotel Adriana d.o.o.', 'Bistro Fontana', 'Tisak Media d.o.o.',
                      'Ljekarna Sveti Duh', 'Konoba Mate'],
               items=['Kava s mlijekom', 'Sendvič šunka', 'Voda 0,5 l', 'Eurodiesel', 'Ručak menu',
                      'Pizza Margherita', 'Čaj', 'Parking 2 h', 'Noćenje', 'Kroasan'],
               streets=['Ilica 12, Zagreb', 'Riva 4, Split', 'Korzo 7, Rijeka', 'Trg bana J. Jelačića 1'],
               intro=['Račun br.', 'R-1 račun br.'], cashier='Blagajnik', thanks='Hvala na posjeti!'),
    'SI': dict(currency='EUR', rates=['22', '9.5', '5'], total=['SKUPAJ', 'ZA PLAČILO', 'SKUPAJ EUR'],
               vat='DDV', base='Osnova', cash='GOTOVINA', change='VRAČILO', card='KARTICA',
               names=['Mercator d.d.', 'Gostilna Pri Lojzetu', 'Petrol d.d. Ljubljana', 'Kavarna Central',
                      'Hotel Union d.o.o.', 'Pekarna Kruh', 'Restavracija Sonce', 'Tuš Market'],
               items=['Kava z mlekom', 'Sendvič', 'Mineralna voda', 'Dizel gorivo', 'Kosilo', 'Pica',
                      'Čaj', 'Parkirnina', 'Nočitev', 'Rogljič'],
               streets=['Slovenska cesta 9, Ljubljana', 'Glavni trg 3, Maribor', 'Prešernov trg 2, Kranj'],
               intro=['Račun št.', 'Št. računa'], cashier='Prodajalec', thanks='Hvala za nakup!'),
    'SK': dict(currency='EUR', rates=['23', '19', '5'], total=['SPOLU', 'CELKOM', 'K ÚHRADE'],
               vat='DPH', base='Základ', cash='HOTOVOSŤ', change='VRÁTENÉ', card='KARTA',
               names=['TESCO STORES SR a.s.', 'Reštaurácia Koliba', 'SLOVNAFT a.s.', 'Kaviareň Modrá',
                      'Hotel Tatra s.r.o.', 'Pekáreň u Jána', 'Bistro Dunaj'],
               items=['Káva s mliekom', 'Bageta šunka', 'Minerálka 0,5 l', 'Nafta', 'Obedové menu',
                      'Pizza', 'Čaj', 'Parkovanie', 'Ubytovanie', 'Croissant'],
               streets=['Obchodná 5, Bratislava', 'Hlavná 20, Košice', 'Námestie SNP 1, Žilina'],
               intro=['Doklad č.', 'Pokladničný doklad'], cashier='Pokladník', thanks='Ďakujeme za nákup!'),
    'CZ': dict(currency='CZK', rates=['21', '12'], total=['CELKEM', 'K ÚHRADĚ', 'CELKEM Kč'],
               vat='DPH', base='Základ', cash='HOTOVOST', change='VRÁCENO', card='KARTA',
               names=['Albert Česká republika s.r.o.', 'Restaurace U Fleků', 'BENZINA s.r.o.',
                      'Kavárna Slavia', 'Hotel Praha a.s.', 'Pekárna Krupka', 'Bistro Anděl'],
               items=['Káva s mlékem', 'Bageta šunka', 'Minerální voda', 'Nafta motorová', 'Polední menu',
                      'Pizza', 'Čaj', 'Parkování', 'Ubytování', 'Rohlík'],
               streets=['Václavské nám. 1, Praha', 'Masarykova 12, Brno', 'Náměstí Míru 3, Plzeň'],
               intro=['Účtenka č.', 'Daňový doklad č.'], cashier='Obsluha', thanks='Děkujeme za nákup!'),
    'PL': dict(currency='PLN', rates=['23', '8', '5'], total=['SUMA PLN', 'RAZEM', 'DO ZAPŁATY'],
               vat='PTU', base='Sprzed. opod.', cash='GOTÓWKA', change='RESZTA', card='KARTA',
               names=['Biedronka Jeronimo Martins', 'Restauracja Pod Wawelem', 'ORLEN S.A.',
                      'Kawiarnia Nowa', 'Hotel Polonia Sp. z o.o.', 'Piekarnia Bułka', 'Bistro Wisła'],
               items=['Kawa z mlekiem', 'Kanapka z szynką', 'Woda 0,5 l', 'Olej napędowy', 'Obiad dnia',
                      'Pizza', 'Herbata', 'Parking', 'Nocleg', 'Rogalik'],
               streets=['ul. Marszałkowska 10, Warszawa', 'ul. Floriańska 5, Kraków', 'ul. Długa 3, Gdańsk'],
               intro=['PARAGON FISKALNY', 'PARAGON FISKALNY nr'], cashier='Kasjer', thanks='Dziękujemy!'),
}

CENT = Decimal('0.01')


def fmt(amount, sep=',', thousands=''):
    s = f'{amount:.2f}'
    whole, frac = s.split('.')
    if thousands and len(whole) > 3:
        whole = f'{int(whole):,}'.replace(',', thousands)
    return f'{whole}{sep}{frac}'


def fmt_date(market, y, m, d, rng):
    if market == 'HR':
        return rng.choice([f'{d:02d}.{m:02d}.{y}.', f'{d:02d}.{m:02d}.{y}'])
    if market == 'SI':
        return rng.choice([f'{d}. {m}. {y}', f'{d:02d}.{m:02d}.{y}'])
    if market == 'PL':
        return rng.choice([f'{y}-{m:02d}-{d:02d}', f'{d:02d}.{m:02d}.{y}'])
    return rng.choice([f'{d:02d}.{m:02d}.{y}', f'{d}.{m}.{y}', f'{d:02d}/{m:02d}/{y}'])


def line2(left, right):
    gap = max(1, COLS - len(left) - len(right))
    return left + ' ' * gap + right


def si_fiscal_code(zoi_hex, tax, y, mo, d, h, mi, s):
    """FURS (Slovenia): ZOI as 39 decimal digits, the issuer's tax number, YYMMDDhhmmss, a check digit."""
    digits = str(int(zoi_hex, 16)).rjust(39, '0') + tax + f'{y % 100:02d}{mo:02d}{d:02d}{h:02d}{mi:02d}{s:02d}'
    return digits + str(sum(int(c) for c in digits) % 10)


def make_receipt(market, rng, idx):
    m = MARKETS[market]
    y = rng.choice([2025, 2026])
    mo, d = rng.randint(1, 12), rng.randint(1, 28)
    h, mi, s = rng.randint(6, 22), rng.randint(0, 59), rng.randint(0, 59)
    thousands = rng.choice(['', '', '.', ' ']) if market in ('CZ', 'PL') else ''
    sep = '.' if (market == 'PL' and rng.random() < 0.2) else ','
    name = rng.choice(m['names'])
    n_items = rng.randint(1, 6)
    scale = {'CZ': 25, 'PL': 4}.get(market, 1)
    items = []
    for _ in range(n_items):
        qty = rng.choice([1, 1, 1, 2, 3])
        price = (Decimal(rng.randint(80, 4500 if rng.random() < 0.9 else 30000)) / 100 * scale).quantize(CENT)
        items.append((rng.choice(m['items']), qty, price, rng.choice(m['rates'][:2] if len(m['rates']) > 1 else m['rates'])))
    total = sum((q * p for _, q, p, _ in items), Decimal(0)).quantize(CENT)
    by_rate = {}
    for _, q, p, r in items:
        by_rate[r] = by_rate.get(r, Decimal(0)) + q * p
    vat = []
    for r, gross in sorted(by_rate.items(), key=lambda kv: -Decimal(kv[0])):
        gross = gross.quantize(CENT)
        base = (gross / (1 + Decimal(r) / 100)).quantize(CENT, ROUND_HALF_UP)
        vat.append({'rate': r, 'amount': str(gross - base), 'base': str(base)})

    if market == 'HR':
        tax = {'scheme': 'HR-OIB', 'value': oib(rng)}
        id_lines = [f'OIB: {tax["value"]}']
    elif market == 'SI':
        tax = {'scheme': 'SI-DAVCNA', 'value': si_davcna(rng)}
        id_lines = [f'ID za DDV: SI{tax["value"]}']
    elif market == 'SK':
        dic = sk_dic(rng)
        tax = {'scheme': 'SK-ICDPH', 'value': 'SK' + dic}
        id_lines = [f'IČO: {ico(rng)}', f'DIČ: {dic}', f'IČ DPH: SK{dic}']
    elif market == 'CZ':
        i = ico(rng)
        tax = {'scheme': 'CZ-DIC', 'value': 'CZ' + i}
        id_lines = [f'IČO: {i}', f'DIČ: CZ{i}']
    else:
        n = nip(rng)
        tax = {'scheme': 'PL-NIP', 'value': n}
        dashed = f'{n[:3]}-{n[3:6]}-{n[6:8]}-{n[8:]}' if rng.random() < 0.5 else n
        id_lines = [f'NIP {dashed}']

    date_s = fmt_date(market, y, mo, d, rng)
    time_s = f'{h:02d}:{mi:02d}' + (f':{s:02d}' if rng.random() < 0.5 else '')
    cur_word = {'EUR': rng.choice(['EUR', '€']), 'CZK': rng.choice(['Kč', 'CZK']), 'PLN': rng.choice(['zł', 'PLN'])}[m['currency']]

    lines = [('title', name), ('c', rng.choice(m['streets']))] + [('c', l) for l in id_lines]
    lines.append(('l', ''))
    if market == 'PL':
        lines.append(('l', line2(date_s, time_s)))
        lines.append(('c', 'PARAGON FISKALNY'))
    else:
        lines.append(('l', f'{rng.choice(m["intro"])} {rng.randint(1, 9999)}/{rng.randint(1, 9)}/{rng.randint(1, 3)}'))
        lines.append(('l', line2(date_s, time_s)))
    lines.append(('l', '-' * COLS))
    for it, q, p, r in items:
        lines.append(('l', it))
        lines.append(('l', line2(f'  {q} x {fmt(p, sep, thousands)}', fmt(q * p, sep, thousands))))
    lines.append(('l', '-' * COLS))
    total_kw = rng.choice(m['total'])
    total_txt = fmt(total, sep, thousands)
    if cur_word in total_kw or cur_word == 'Kč' and 'Kč' in total_kw:
        lines.append(('big', line2(total_kw, total_txt)))
    else:
        lines.append(('big', line2(total_kw, f'{total_txt} {cur_word}')))
    if rng.random() < 0.5:
        paid = (total + Decimal(rng.choice([0, 1, 5, 10, 20, 50])) * scale).quantize(Decimal(1), 'ROUND_CEILING')
        lines.append(('l', line2(m['cash'], fmt(paid, sep, thousands))))
        lines.append(('l', line2(m['change'], fmt(paid - total, sep, thousands))))
    else:
        lines.append(('l', line2(m['card'], total_txt)))
    lines.append(('l', ''))
    lines.append(('l', line2(m['vat'], f'{m["base"]}   {m["vat"]}')))
    for v in vat:
        rate = v['rate'].replace('.', ',') if market != 'PL' else v['rate']
        lines.append(('l', line2(f'{m["vat"]} {rate}%', f'{fmt(Decimal(v["base"]), sep)}  {fmt(Decimal(v["amount"]), sep)}')))
    lines.append(('l', ''))
    lines.append(('l', f'{m["cashier"]}: {rng.choice(["Ana", "Marko", "Eva", "Jan", "Petra"])}'))
    qr = None
    if market == 'HR':
        zki = '%032x' % rng.getrandbits(128)
        jir = '%08x-%04x-%04x-%04x-%012x' % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(16),
                                              rng.getrandbits(16), rng.getrandbits(48))
        lines.append(('l', f'ZKI: {zki}'))
        lines.append(('l', f'JIR: {jir}'))
        # Čl. 18.c: the amount with two decimals and no separator (cents).
        qr = f'https://porezna.gov.hr/rn?jir={jir}&datv={y}{mo:02d}{d:02d}_{h:02d}{mi:02d}&izn={int(total * 100)}'
    elif market == 'SI':
        zoi = '%032x' % rng.getrandbits(128)
        eor = '%08x-%04x-%04x-%04x-%012x' % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(16),
                                              rng.getrandbits(16), rng.getrandbits(48))
        lines.append(('l', f'ZOI: {zoi}'))
        lines.append(('l', f'EOR: {eor}'))
        qr = si_fiscal_code(zoi, tax['value'], y, mo, d, h, mi, s)
    lines.append(('c', m['thanks']))

    truth = {
        'market': market, 'state': 'Read',
        'fields': {
            'totalAmount': str(total), 'currencyCode': m['currency'], 'date': f'{y}-{mo:02d}-{d:02d}',
            'time': time_s, 'merchantName': name, 'merchantTaxId': tax, 'vat': vat,
        },
    }
    if qr:
        truth['qr'] = qr
    return lines, qr, truth


def render(lines, qr, rng):
    size = rng.choice([20, 22, 24])
    k = rng.randrange(len(MONO))
    f = ImageFont.truetype(font_path(MONO[k]), size)
    fb = ImageFont.truetype(font_path(MONO_BOLD[k]), size)
    ft = ImageFont.truetype(font_path(rng.choice([MONO_BOLD[k], SANS[k]])), size + 8)
    char_w = f.getlength('M')
    width = int(char_w * COLS + 60)
    lh = int(size * 1.35)
    height = 40 + sum(lh + (12 if kind in ('title', 'big') else 0) for kind, _ in lines) + (width // 2 + 20 if qr else 0) + 40
    paper = rng.randint(235, 255)
    img = Image.new('L', (width, height), paper)
    d = ImageDraw.Draw(img)
    yy = 30
    ink = rng.randint(0, 60)
    for kind, text in lines:
        font = ft if kind == 'title' else fb if kind == 'big' else f
        if kind in ('title', 'c'):
            x = max(10, (width - font.getlength(text)) / 2)
        else:
            x = 30
        d.text((x, yy), text, font=font, fill=ink)
        yy += lh + (12 if kind in ('title', 'big') else 0)
    if qr:
        q = qrcode.QRCode(border=2, box_size=4, error_correction=qrcode.constants.ERROR_CORRECT_M)
        q.add_data(qr)
        q.make(fit=True)
        qi = q.make_image(fill_color='black', back_color='white').convert('L')
        side = width // 2
        qi = qi.resize((side, side), Image.NEAREST)
        img.paste(qi, ((width - side) // 2, yy + 10))
    return img.convert('RGB')


def photograph(img, rng, upside_down):
    """A phone photo of the receipt on a table: perspective, rotation, light, blur, noise, a fold, JPEG."""
    w, h = img.size
    # crumple: a few soft shading bands across the paper
    arr = np.asarray(img).astype(np.float32)
    for _ in range(rng.randint(0, 3)):
        y0 = rng.randint(0, h)
        band = np.exp(-((np.arange(h) - y0) ** 2) / (2 * rng.randint(10, 60) ** 2)) * rng.uniform(10, 45)
        arr -= band[:, None, None]
    img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    pad = int(max(w, h) * 0.08)
    table = tuple(rng.randint(60, 160) for _ in range(3))
    canvas = Image.new('RGB', (w + 2 * pad, h + 2 * pad), table)
    canvas.paste(img, (pad, pad))
    W, H = canvas.size
    j = lambda: rng.uniform(-0.03, 0.03)
    src = [(0, 0), (W, 0), (W, H), (0, H)]
    dst = [(W * j(), H * j()), (W * (1 + j()), H * j()), (W * (1 + j()), H * (1 + j())), (W * j(), H * (1 + j()))]
    coeffs = perspective_coeffs(dst, src)
    canvas = canvas.transform((W, H), Image.PERSPECTIVE, coeffs, Image.BICUBIC, fillcolor=table)
    canvas = canvas.rotate(rng.uniform(-5, 5), Image.BICUBIC, expand=True, fillcolor=table)
    if upside_down:
        canvas = canvas.rotate(180)
    # light: overall level and a gradient shadow
    canvas = ImageEnhance.Brightness(canvas).enhance(rng.uniform(0.55, 1.05))
    arr = np.asarray(canvas).astype(np.float32)
    gx = np.linspace(rng.uniform(0.7, 1.0), rng.uniform(0.85, 1.0), arr.shape[1])
    arr *= gx[None, :, None]
    arr += np.random.default_rng(rng.getrandbits(32)).normal(0, rng.uniform(2, 9), arr.shape)
    canvas = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    canvas = canvas.filter(ImageFilter.GaussianBlur(rng.uniform(0.2, 1.1)))
    return canvas


def perspective_coeffs(src, dst):
    a = []
    for (x, y), (u, v) in zip(src, dst):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y])
    b = [c for p in dst for c in p]
    return np.linalg.solve(np.array(a, dtype=np.float64), np.array(b, dtype=np.float64)).tolist()


def non_receipt(kind, rng):
    if kind == 'blank':
        img = Image.new('RGB', (900, 1200), tuple([rng.randint(225, 250)] * 3))
        arr = np.asarray(img).astype(np.float32) + np.random.default_rng(rng.getrandbits(32)).normal(0, 4, (1200, 900, 3))
        return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8)), 'blank page'
    # a landscape: sky gradient, hills, a sun
    w, h = 1200, 800
    img = Image.new('RGB', (w, h))
    d = ImageDraw.Draw(img)
    for y in range(h):
        t = y / h
        d.line([(0, y), (w, y)], fill=(int(90 + 100 * t), int(150 + 60 * t), int(230 - 40 * t)))
    for i in range(3):
        base = h * (0.55 + 0.12 * i)
        pts = [(x, base - 80 * math.sin(x / rng.uniform(90, 200) + rng.random() * 6)) for x in range(0, w + 20, 20)]
        d.polygon(pts + [(w, h), (0, h)], fill=(30 + 30 * i, 110 + 30 * i, 40 + 10 * i))
    d.ellipse([w * 0.75, h * 0.1, w * 0.75 + 90, h * 0.1 + 90], fill=(250, 230, 120))
    return img.filter(ImageFilter.GaussianBlur(1.5)), 'landscape'


def cp1252(text):
    """What Courier in WinAnsi can carry: letters outside it lose their accent (č -> c, ł -> l)."""
    out = []
    for ch in text:
        try:
            ch.encode('cp1252')
            out.append(ch)
        except UnicodeEncodeError:
            base = unicodedata.normalize('NFKD', ch)[0]
            out.append({'ł': 'l', 'Ł': 'L', 'đ': 'd', 'Đ': 'D'}.get(ch, base if base.isascii() else '?'))
    return ''.join(out)


def text_pdf(lines, path):
    """A one-page PDF whose text is real text (Courier, WinAnsi): read exactly, without OCR."""
    def esc(s):
        return s.replace('\\', '\\\\').replace('(', '\\(').replace(')', '\\)')
    body = ['BT', '/F1 9 Tf', '11 TL', '40 800 Td']
    for _, text in lines:
        body.append(f'({esc(text)}) Tj T*')
    body.append('ET')
    stream = cp1252('\n'.join(body)).encode('cp1252')
    objs = [
        b'<< /Type /Catalog /Pages 2 0 R >>',
        b'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        b'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
        b'<< /Length %d >>\nstream\n' % len(stream) + stream + b'\nendstream',
        b'<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>',
    ]
    out = bytearray(b'%PDF-1.4\n')
    offsets = []
    for i, o in enumerate(objs, 1):
        offsets.append(len(out))
        out += b'%d 0 obj\n' % i + o + b'\nendobj\n'
    xref = len(out)
    out += b'xref\n0 %d\n0000000000 65535 f \n' % (len(objs) + 1)
    for off in offsets:
        out += b'%010d 00000 n \n' % off
    out += b'trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n' % (len(objs) + 1, xref)
    with open(path, 'wb') as fh:
        fh.write(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('out')
    ap.add_argument('--per-market', type=int, default=44)
    ap.add_argument('--seed', type=int, default=37)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    manifest = []
    for market in MARKETS:
        for i in range(args.per_market):
            rid = f'{market.lower()}-{i:03d}'
            lines, qr, truth = make_receipt(market, rng, i)
            img = render(lines, qr, rng)
            if i < 2:  # a text PDF and a scanned PDF per market
                if i == 0:
                    path = f'{rid}.pdf'
                    text_pdf(lines, os.path.join(args.out, path))
                    truth['kind'] = 'text-pdf'
                    # Courier in WinAnsi has no č/ć/ł...: the truth is what the PDF can carry.
                    truth['fields']['merchantName'] = cp1252(lines[0][1])
                else:
                    path = f'{rid}.pdf'
                    photograph(img, rng, False).save(os.path.join(args.out, path), 'PDF', resolution=150)
                    truth['kind'] = 'scanned-pdf'
            else:
                upside = rng.random() < 0.08
                photo = photograph(img, rng, upside)
                # a phone photo is large; keep it the size of one (long side 1400-2000 px)
                longest = rng.randint(1400, 2000)
                r = longest / max(photo.size)
                photo = photo.resize((int(photo.width * r), int(photo.height * r)), Image.LANCZOS)
                path = f'{rid}.jpg'
                photo.save(os.path.join(args.out, path), 'JPEG', quality=rng.randint(55, 88))
                truth['kind'] = 'photo-upside-down' if upside else 'photo'
            truth['file'] = path
            with open(os.path.join(args.out, f'{rid}.json'), 'w', encoding='utf-8') as fh:
                json.dump(truth, fh, ensure_ascii=False, indent=1)
            manifest.append(rid)
    for i, kind in enumerate(['landscape', 'blank', 'landscape', 'blank', 'landscape', 'blank', 'landscape', 'blank']):
        rid = f'none-{i:03d}'
        img, what = non_receipt(kind, rng)
        img.save(os.path.join(args.out, f'{rid}.jpg'), 'JPEG', quality=80)
        with open(os.path.join(args.out, f'{rid}.json'), 'w', encoding='utf-8') as fh:
            json.dump({'market': rng.choice(list(MARKETS)), 'state': 'Unreadable', 'kind': what, 'file': f'{rid}.jpg',
                       'fields': {}}, fh, indent=1)
        manifest.append(rid)
    with open(os.path.join(args.out, 'manifest.json'), 'w') as fh:
        json.dump({'seed': args.seed, 'perMarket': args.per_market, 'ids': manifest,
                   'crc': zlib.crc32(json.dumps(manifest).encode())}, fh, indent=1)
    print(f'{len(manifest)} samples in {args.out}')


if __name__ == '__main__':
    main()
