#!/usr/bin/python3
"""Takes PNG screenshots of the real app running in tmux, into Screenshots/.

    scripts/screenshots.py [path/to/grocery-dude]

Needs tmux, Pillow and fonts: apt-get install tmux python3-pil fonts-dejavu-core fonts-noto-cjk
(the script runs Debian's /usr/bin/python3, which has Pillow from python3-pil). Each screen is
captured with its colours (`tmux capture-pane -e`) and drawn cell by cell, wide characters over
two cells, so the PNG shows what the terminal showed.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata

from PIL import Image, ImageDraw, ImageFont

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/grocery-dude")
OUT = os.path.join(ROOT, "Screenshots")
SOCKET = "gd-screenshots-%d" % os.getpid()

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
WIDE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
SIZE = 16

# xterm's 16 colours, and the grey ramp and cube of the 256.
BASE = [(0, 0, 0), (205, 49, 49), (13, 188, 121), (229, 229, 16), (36, 114, 200), (188, 63, 188), (17, 168, 205), (229, 229, 229),
        (102, 102, 102), (241, 76, 76), (35, 209, 139), (245, 245, 67), (59, 142, 234), (214, 112, 214), (41, 184, 219), (255, 255, 255)]
BACKGROUND, FOREGROUND = (30, 30, 30), (220, 220, 220)


def color256(n):
    if n < 16:
        return BASE[n]
    if n >= 232:
        v = 8 + (n - 232) * 10
        return (v, v, v)
    n -= 16
    return tuple(0 if c == 0 else 55 + c * 40 for c in (n // 36, (n // 6) % 6, n % 6))


def tmux(*args):
    return subprocess.run(["tmux", "-L", SOCKET, "-f", "/dev/null", *args], check=True, capture_output=True, text=True).stdout


def parse(ansi, width):
    """Cells (char, fg, bg, bold, dim, wide) per line from capture-pane -e output."""
    lines = []
    for raw in ansi.split("\n"):
        cells, fg, bg, bold, dim, reverse = [], None, None, False, False, False
        for token in re.split(r"(\x1b\[[0-9;]*m)", raw):
            if token.startswith("\x1b["):
                codes = [int(c) if c else 0 for c in token[2:-1].split(";")] or [0]
                i = 0
                while i < len(codes):
                    c = codes[i]
                    if c == 0: fg, bg, bold, dim, reverse = None, None, False, False, False
                    elif c == 1: bold = True
                    elif c == 2: dim = True
                    elif c == 22: bold = dim = False
                    elif c == 7: reverse = True
                    elif c == 27: reverse = False
                    elif 30 <= c <= 37: fg = BASE[c - 30]
                    elif 90 <= c <= 97: fg = BASE[c - 90 + 8]
                    elif 40 <= c <= 47: bg = BASE[c - 40]
                    elif 100 <= c <= 107: bg = BASE[c - 100 + 8]
                    elif c == 39: fg = None
                    elif c == 49: bg = None
                    elif c in (38, 48) and i + 2 < len(codes) and codes[i + 1] == 5:
                        if c == 38: fg = color256(codes[i + 2])
                        else: bg = color256(codes[i + 2])
                        i += 2
                    i += 1
                continue
            for ch in token:
                wide = unicodedata.east_asian_width(ch) in ("W", "F")
                f, b = fg or FOREGROUND, bg or BACKGROUND
                if reverse: f, b = b, f
                if dim: f = tuple(int(v * 0.6 + b[i] * 0.4) for i, v in enumerate(f))
                cells.append((ch, f, b, bold, wide))
                if wide: cells.append(None)
        lines.append(cells[:width] + [(" ", FOREGROUND, BACKGROUND, False, False)] * max(0, width - len(cells)))
    return lines


def render(ansi, width, height, path):
    regular, bold, wide = ImageFont.truetype(FONT, SIZE), ImageFont.truetype(BOLD, SIZE), ImageFont.truetype(WIDE, SIZE)
    cw, ch = int(regular.getlength("M")), int(SIZE * 1.35)
    image = Image.new("RGB", (width * cw + 16, height * ch + 16), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for y, cells in enumerate(parse(ansi, width)[:height]):
        for x, cell in enumerate(cells):
            if cell is None:
                continue
            char, fg, bg, is_bold, is_wide = cell
            left, top = 8 + x * cw, 8 + y * ch
            draw.rectangle([left, top, left + cw * (2 if is_wide else 1) - 1, top + ch - 1], fill=bg)
            if char != " ":
                font = wide if is_wide or not regular.getmask(char).getbbox() else (bold if is_bold else regular)
                draw.text((left, top + 2), char, font=font, fill=fg)
    image.save(path)


def shot(name, target="main", width=80, height=24):
    time.sleep(0.6)
    render(tmux("capture-pane", "-e", "-p", "-t", target), width, height, os.path.join(OUT, name + ".png"))
    print("wrote Screenshots/%s.png" % name)


def shot_side_by_side(name, left, right, width, height=24):
    """Two panes' captures drawn next to each other with tmux's divider."""
    time.sleep(0.6)
    a = tmux("capture-pane", "-e", "-p", "-t", left).split("\n")
    b = tmux("capture-pane", "-e", "-p", "-t", right).split("\n")
    pad = lambda line: line + " " * max(0, width - len(re.sub(r"\x1b\[[0-9;]*m", "", line)))
    combined = "\n".join(pad(a[i] if i < len(a) else "") + "\x1b[0m│" + (b[i] if i < len(b) else "") for i in range(height))
    render(combined, width * 2 + 1, height, os.path.join(OUT, name + ".png"))
    print("wrote Screenshots/%s.png" % name)


def keys(*k, target="main"):
    tmux("send-keys", "-t", target, *k)
    time.sleep(0.25)


def main():
    os.makedirs(OUT, exist_ok=True)
    data = tempfile.mkdtemp(prefix="gd-screens-")
    env = "env LANG=C.UTF-8 TERM=screen-256color "
    app = lambda device, extra="": "%s%s --data-dir %s --device %s %s" % (env, BINARY, data, device, extra)
    cli = lambda device, *args: subprocess.run([BINARY, "--data-dir", data, "--device", device, *args], check=True, capture_output=True)
    try:
        # The book's default groceries, some on the list, and a name in wide characters.
        cli("kitchen", "item", "ls")
        for name in ["Milk", "Bread", "Eggs", "Apples", "Coffee", "Toilet Paper"]:
            cli("kitchen", "item", "list", name)
        cli("kitchen", "item", "add", "牛乳 (Japanese milk)", "--home-location", "Fridge", "--shop-location", "Aisle 1 - Dairy")
        tmux("new-session", "-d", "-s", "main", "-x", "80", "-y", "24", app("kitchen"))
        time.sleep(1.5)
        shot("prepare")
        keys("2"); shot("shop")
        keys("1"); keys("j", "j", "Enter"); shot("editor")
        keys("j", "j", "Enter"); shot("editor-picker")
        keys("Escape", "Escape")
        keys("C"); shot("dialog-clear")
        keys("Escape")
        keys("3"); shot("units")
        keys("?"); shot("help")
        keys("Escape")
        keys("6"); shot("cloud-off")
        keys("c"); shot("dialog-merge")
        keys("m"); time.sleep(2); shot("cloud-on")
        keys("X"); keys("-l", "start"); shot("dialog-start-over")
        keys("Escape")
        keys("m"); shot("messages")
        keys("Escape")
        keys("1"); keys("o"); keys("f"); shot("prepare-by-name-only-listed")
        keys("f"); keys("o")
        keys("q")
        subprocess.run(["tmux", "-L", SOCKET, "kill-server"], capture_output=True)
        time.sleep(0.5)

        # The smallest terminal the app is drawn in: the editor and a long dialog scroll.
        tmux("new-session", "-d", "-s", "main", "-x", "40", "-y", "10", app("kitchen"))
        time.sleep(1.5)
        keys("Enter"); keys(*["j"] * 6); shot("editor-40x10", width=40, height=10)
        keys("q")
        keys("6"); keys("X"); shot("dialog-start-over-40x10", width=40, height=10)
        keys("Down", "Down"); shot("dialog-start-over-40x10-end", width=40, height=10)
        keys("Escape")
        keys("q")
        subprocess.run(["tmux", "-L", SOCKET, "kill-server"], capture_output=True)
        time.sleep(0.5)

        # Two terminals as two devices, side by side.
        cli("phone", "cloud", "enable")
        tmux("new-session", "-d", "-s", "main", "-x", "161", "-y", "24", app("kitchen"))
        tmux("split-window", "-h", "-t", "main:0", app("phone"))
        time.sleep(2)
        keys("a", target="main:0.0"); keys("-l", "Oat milk", target="main:0.0"); keys("Enter", target="main:0.0")
        time.sleep(1)
        shot_side_by_side("two-devices", "main:0.0", "main:0.1", width=80)
    finally:
        subprocess.run(["tmux", "-L", SOCKET, "kill-server"], capture_output=True)
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
