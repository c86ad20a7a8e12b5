# Splices the manual's own sections (`grocery-dude manual-sections`) into the page that the
# argument parser's generate-manual plugin wrote (what `make manual` runs):
#
#   awk -v hidden="NAME ..." -f scripts/splice-manual.awk SECTIONS GENERATED > PAGE
#
# The plugin lists hidden subcommands too: the item of each subcommand named in `hidden`
# (`.It Em NAME` and what it holds, down to the next item of its list or the list's end) is
# left out.
#
# SECTIONS is in parts, each after a comment line that says where it goes:
#   .\" grocery-dude manual: into TITLE     at the start of the page's section TITLE
#   .\" grocery-dude manual: before TITLE   before the page's section TITLE, or at the end of
#                                           the page when it has none
# A part "into" a section the page lacks is an error: the page would be wrong.

# The sections' file: its parts, in order.
FNR == NR {
    if ($0 ~ /^\.\\" grocery-dude manual: (into|before) /) {
        parts++
        where = $0
        sub(/^\.\\" grocery-dude manual: /, "", where)
        mode[parts] = substr(where, 1, index(where, " ") - 1)
        title[parts] = toupper(substr(where, index(where, " ") + 1))
        next
    }
    text[parts] = text[parts] $0 "\n"
    next
}

# The generated page, without the hidden subcommands' items.
BEGIN { split(hidden, names, " "); for (i in names) isHidden[names[i]] = 1 }
skipping && /^\.Bl / { depth++; next }
skipping && /^\.El/ { if (depth-- > 0) next; skipping = 0 }
skipping && /^\.It / && depth == 0 { skipping = 0 }
skipping { next }
/^\.It Em / && (substr($0, 8) in isHidden) { skipping = 1; depth = 0; next }

# The generated page, with the parts placed around its section headers.
/^\.Sh / {
    header = toupper(substr($0, 5))
    gsub(/"/, "", header)
    for (i = 1; i <= parts; i++)
        if (!placed[i] && mode[i] == "before" && title[i] == header) { printf "%s", text[i]; placed[i] = 1 }
    print
    for (i = 1; i <= parts; i++)
        if (!placed[i] && mode[i] == "into" && title[i] == header) { printf "%s", text[i]; placed[i] = 1 }
    next
}
{ print }

END {
    for (i = 1; i <= parts; i++) {
        if (placed[i]) continue
        if (mode[i] == "into") { print "splice-manual: the page has no section " title[i] > "/dev/stderr"; exit 1 }
        printf "%s", text[i]
    }
}
