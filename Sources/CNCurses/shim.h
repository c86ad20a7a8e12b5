#ifndef GROCERY_DUDE_CNCURSES_SHIM_H
#define GROCERY_DUDE_CNCURSES_SHIM_H

// The wide-character API (wget_wch, mvaddwstr, ...) is only declared with these defined.
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif

#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>

// `stdscr`, `LINES`, `COLS` and `COLOR_PAIR` are macros or thread-local globals in ncurses,
// which Swift cannot import: these static inline wrappers expose them as functions.
static inline WINDOW *gd_stdscr(void) { return stdscr; }
static inline int gd_lines(void) { return LINES; }
static inline int gd_cols(void) { return COLS; }
static inline int gd_color_pair(int pair) { return (int)COLOR_PAIR(pair); }
static inline int gd_a_bold(void) { return (int)A_BOLD; }
static inline int gd_a_reverse(void) { return (int)A_REVERSE; }
static inline int gd_a_dim(void) { return (int)A_DIM; }
static inline int gd_a_underline(void) { return (int)A_UNDERLINE; }

// Swift 6 refuses to touch C's `stdout` / `stdin` globals (mutable shared state), so the
// screen on the standard streams is made here. NULL when the terminal type is unknown.
static inline SCREEN *gd_newterm_stdio(void) { return newterm(NULL, stdout, stdin); }

// Control sequences written straight to the terminal, around curses (bracketed paste on and
// off): curses knows nothing of them.
static inline void gd_write_raw(const char *text) { fputs(text, stdout); fflush(stdout); }
static inline int gd_key_f(int n) { return KEY_F(n); }

#endif
