"""The rules by which the recogniser names a card or abstains: its thresholds and switches, each with
the scenes that chose it (the evidence is in ``vision/README.md``, session by session).

:mod:`vision.reader` (one outline read against the deck's faces) and :mod:`vision.recognise` (the
cards of a frame) read them here at the time of use, so a test or an evaluation turns a rule off in
one place:

    >>> from vision import rules
    >>> rules.CLEAR, rules.CLEAR_MARGIN
    (True, 0.25)
    >>> # monkeypatch.setattr(rules, "CLEAR", False)   # in a test: clear readings no longer named

Confidences and margins are the descriptor's (:mod:`vision.features`); px are full-size frame px
unless a rule says otherwise.
"""

RIVALS = 4          # closest other cards the margin is measured against
FIT_MIN_CONFIDENCE = 0.5  # a whole outline this much like a face is worth fitting to it
# and a guessed one: guesses 8-10 px off read 0.43-0.49 as a look-alike (style-2 development seeds
# 100..399: fitted to their closest faces from 0.3 on, 3 more right names, none wrong)
GUESS_FIT_MIN_CONFIDENCE = 0.3
FIT_ROUNDS = 2   # ECC rounds for an outline (vision.refine.fit_to_face)
FIT_FACES = 3    # a guessed outline that names nothing is fitted to this many of the faces it reads most like
# A fit to one of those faces, or to the deck's mean face, whose first ECC round leaves the card correlated
# under this with the face is given up (its second round and reading skipped). Style-2 development seeds
# 100..399, every such fit run in full: of the 5,109 whose first round held, 3,159 stood under 0.7 there and
# none of them named a card (the surest read 0.82); the 8 that named had reached 0.86 or more, and every fit
# read 0.9 or surer 0.79 or more
HOPELESS_FIT = 0.7
# a guess named by a clear reading of its fit (under a fit's thresholds) is fitted to the next closest faces too
# (_read_guess). Style-2 fresh set 23 (3,090,700..), every such reading logged with its guess fitted to the two
# next faces: of 109, 4 were beaten by a fit naming another card surer (0.94-0.99 against 0.85-0.91), all 4
# wrong and each time the card the fit named; none of the 105 others (90 right, 15 wrong)
NEXT_FACES_CHECK_CLEAR = True
# and so is a whole outline named under CONFIRM_WHOLE_BELOW whose fit to the named face named it again: a full-bleed
# yellow 11, a token over one corner, its outline 5 px off, read yellow-9 0.92 whole and 0.916 fitted to the 9's
# face (its pips a row off the 9's land on them); fitted to yellow-11's face, 0.977 (fresh scene 3,097,215). Set 26
# (3,096,700..): 968 outlines checked, that one reading changed; development 100..1699: every reading the same
NEXT_FACES_CHECK_WHOLE = True
# A fit to one of those next faces that reads its card surer than the name given, by a whole outline's margin,
# but is refused by the checks (its tell under another card), leaves the outline unnamed: two cards read so,
# neither surely (fresh scene 3,101,507: a blue 10 half under a blue 7, its guess fitted to blue-9's face read
# blue-9 0.82 clear; fitted to blue-10's, 0.90, margin 0.49, refused). Development 100..1699: no reading changed;
# set 27: that one (vision/README.md, fifty-first session)
NEXT_FACES_DOUBT = True
EVEN_FACES_A_STEP = 8   # faces described evened in one step of _making_even_bank (about 0.3 ms each)
# an outline fitted to a face reads more like that face, so it must read surer to be named: at a
# whole outline's thresholds purple-12s fitted to purple-10 were named purple-10 (style-2
# evaluation seeds, 3 of 500 scenes, aaba7fa). Outlines guessed from merged shapes need no more than
# whole ones, and a fitted one no more margin: on development seeds (style 1 0..399, style 2 100..399)
# those extras (+0.03 on guesses, +0.10 on the margin) stopped no wrong name and 3 and 26 right ones.
# +0.01 (seventeenth session): style-2 development seeds 12 more right, none wrong; the 2,000 evaluation
# scenes 44 more right but 4 more wrong (9, 0.111 % of those named: over the 0.1 % aim), so 0.03 stays
FITTED_EXTRA_CONFIDENCE = 0.03
# A fit that moved no corner further than this share of the card's diagonal has hardly pulled the outline
# towards the face: read at 0.90-0.93 it is named if its blurred reading (SOFT_BLUR) names the same card
# as surely. Named on the sharp reading alone, style-2 fresh scenes 3_006_500..3_008_499 gave 3 wrong
# names more (yellow-3 -> yellow-2, twice, blurred readings that disagreed); with the blurred reading,
# fresh scenes 3_008_500..3_010_499: 22 more right names of 8,437, none wrong more (vision/README.md)
SMALL_FIT = 0.01
SAME_CARD_OVERLAP = 0.6  # two outlines sharing this much of the smaller one are the same card
STRAY_OVERLAP = 0.15     # an unnamed guess sharing this much with a card kept is a piece of it
# the light-free reading (vision.features.describe_contrast), chosen on style-1 seeds 0..399
CONTRAST_MIN_CONFIDENCE = 0.85
CONTRAST_MIN_MARGIN = 0.15
FINE_MIN_MARGIN = 0.0   # the full-size print must lie on the named face's side (vision.verify)
# A reading sure enough (min_confidence) but by a narrow margin, from NARROW_MARGIN on, is named only if its
# full-size print lies surely on the named face's side of every close rival (FINE_SURE_MARGIN), with no
# medallion hue to outweigh the print. Style-2 development seeds 100..1699: of the readings the margin alone
# refused that passed every other check, 444 with margins 0.05-0.15 were right and none wrong (the dark
# deck's blue-X against green-X, medallion pairs); 302 of those reach FINE_SURE_MARGIN (vision/README.md)
NARROW_MARGIN = 0.05
FINE_SURE_MARGIN = 0.15
# no patch of the print may be further from the named face than this (vision.verify.FineCheck.mismatch).
# 0.75 until 2026-11-29 (just above the worst right naming on style-1 development seeds 0..399, 0.742):
# on style 2 it refused 32 right readings (0.76-1.18, 27 of them under 0.9) of development seeds
# 100..1699 and no wrong one; at 0.9 the partial-model runs name no card left out more (vision/README.md).
# Guessed outlines (and fits of them) keep 0.75: on fresh style-2 seeds, 0.9 named two partly hidden
# vanessa-fabi as vanessa-rocce, the medallion that tells them apart under another card
MAX_MISMATCH = 0.9
MAX_MISMATCH_NOT_WHOLE = 0.75
# A card printed in one ink has no medallion another card could cover: its guessed outline may leave as much
# unexplained as a whole one (a full-bleed yellow 7 in a pile on felt, fitted within a pixel, read 0.95 clear
# by 0.30 and left 0.79-0.81). Style-2 development seeds 100..1699: 10 scenes changed, 46 -> 48 fully visible
# cards named (felt 2) and 3 partly hidden ones, none wrong (vision/README.md, thirty-fourth session)
MISMATCH_ONE_INK = True
# A reading clear of every close rival by MISMATCH_CLEAR_MARGIN (on a whole outline or a guessed one) may
# leave up to MAX_MISMATCH_CLEAR unexplained: pale yellow and full-bleed faces on photographed, glossy and
# felt tables read 0.77-1.06 with margins of 0.36-0.45 (style-2 development seeds 100..1699 on those tables:
# 2,817 -> 2,823 right, none wrong; partial models name no card left out more: vision/README.md,
# thirty-second session)
MISMATCH_CLEAR = True
MISMATCH_CLEAR_MARGIN = 0.35
MAX_MISMATCH_CLEAR = 1.1
# but on an outline not seen whole only for a face of one ink: a medallion half under a card of the same
# green cloth reads as the look-alike's green one, clear by 0.42 (fresh seed 3,057,358: a full-bleed leon-fabi
# named leon-rocce, leaving 0.81). Style-2 Passe Éclair scenes of development 100..1699 and fresh sets 5 and 6
# (3,054,700..3,058,699): 13 partly hidden cards' right names lost, no fully visible card's (vision/README.md)
MISMATCH_CLEAR_GUESS_ONE_INK = True
# The colours' veto (vision.ink.DifferenceHue.rival) is not asked about a rival printed in the same one ink:
# where two faces of one ink differ, their colours differ only in where the ink lies, which the full-size
# check judges with grey and colour together. Under a warm cast, right green 8, 11 and 12 leant -0.16 to
# -0.21 towards green 4 and 10 and went unnamed. Style-2 development seeds 100..1699: 4 cards more named
# (photographed tables 3, white 1), none wrong (vision/README.md, thirty-third session)
HUE_VETO_SAME_INK = False
# A reading nearer a rival of the same one ink where the two faces differ is not let through by its colours
# alone: its print is still checked whole (the worst patch, the inks). Two faces of one ink differ in colour only
# where the ink lies (see HUE_VETO_SAME_INK), so the colours' word is weak there: a fully visible full-bleed
# yellow 5 read yellow-3, nearer yellow 7 by 0.02, its worst patch 0.99 where 0.9 is allowed, was named (fresh
# scene 3,053,391). Asked of every reading the colours let through, it took 8 partly hidden Passe Éclair cards'
# right names in style-2 development seeds 100..1699 and fresh sets 5-7, and named no card more; asked of same-ink
# rivals only, it changes nothing there (vision/README.md, thirty-eighth session)
SAME_INK_STILL_CHECKED = True
# A card running past the frame's edge is not named when the place its face differs from a close rival's
# lies mostly (MAX_UNSEEN) outside the frame: rectified, the print there is the frame's edge drawn out,
# no evidence either way. Style-2 fresh seeds: a marlon-leon cut by the frame's edge, its medallion outside,
# was named marlon-rocce (3,042,740; 3,041,028 the session before). Half: a round value, not tuned. Its
# cost, fresh seeds 3,044,700..3,046,699: 4 right names of partly seen cards, no wrong one (vision/README.md)
MAX_UNSEEN = 0.5
# A whole outline read a little under min_confidence, its best card clear by the margin, is read again
# with the print blurred by SOFT_BLUR px (an outline a pixel or two off or a soft camera costs the sharp
# reading more than a blurred one) and named if that reading names the same card, the same way round,
# as surely as a sharp one must. Whole outlines only (and fits that hardly moved theirs, SMALL_FIT), never
# other fitted ones: fitted to a look-alike's face, or guessed (full-bleed X-rocce look-alikes, 0.90-0.91),
# the blurred reading named wrongly (style-2 development seeds 100..1699: 2,386 -> 2,397 and 3,921 ->
# 3,941 right, no wrong name more; a floor of 0.70 named no more than 0.80). Blurring every reading
# instead: +2 points of recall on fresh scenes, but 12 wrong names in 2,000 (vision/README.md, nineteenth
# session)
SOFT_BLUR = 1.5
SOFT_FROM = 0.80
# A card whose paper shows a veil of glare over part of it (vision.features.veiled), read short of being
# named, is read again with its print's contrast evened (vision.features.even_contrast) and named if that
# reading names the same card, the same way round, by the margin and at a whole outline's threshold. Whole
# outlines and fits that hardly moved theirs, as the blurred reading
VEILED = True
# and named as a clear reading is (CLEAR's SOFT_FROM and CLEAR_MARGIN, its print surely the card's) when the
# evened reading names it from SOFT_FROM, clear of every rival, on an outline seen whole or a face of one ink
# (as CLEAR): a glossy table's glare spot leaves a sparse face 0.80-0.89 evened. Style-2 development seeds
# 100..1699: 67 scenes where it could fire, 334 -> 337 fully visible cards named (glossy 2, light wood 1), none
# wrong; for any fitted guess, a marlon-leon fitted 10 px off, its medallion under another card, was named
# marlon-rocce (scene 438; vision/README.md, thirty-fourth session)
VEILED_CLEAR = True
# A card read short of being named on an outline fitted to its face, with a spot of glare over part of its paper,
# is read again without the cells under the spot, on it and on every face (vision.glare), and named if that
# reading names the same card, the same way round, at the threshold and by the margin the outline needs. Fitted
# outlines only: the glare is judged against the face the outline was aligned to (and its closest rivals': a
# card's light print where a rival's is dark is not glare), and on a whole outline not yet fitted a name given so
# stopped its fit, and the tells, read on the unfitted outline, took it back (development scene 1594, named
# before from its fit). A name so given that the checks refuse leaves the reading as it was
# (identify's ``plain``). Fresh sets never run before, read both ways: set 14 98.84 -> 98.87 %, 3 fully visible
# gained, none lost; set 15 98.67 -> 98.68 %, 1 gained, none lost; none wrong more (vision/README.md, forty-fourth
# and forty-fifth sessions)
UNGLARED = {"HARDLY_MOVED", "FITTED"}   # the ways an outline is found (Found's names) that are read so
# and named as a clear reading is (as VEILED_CLEAR) when that reading names it from SOFT_FROM, clear of every rival
# by CLEAR_MARGIN, on an outline seen whole or a face of one ink, fitted to the face it read most like: a broad spot
# leaves a halo under GLARE_RISE that holds a card short of the threshold (fresh set 26, glossy: a blue 2 read 0.64
# fitted, 0.85-0.87 without its glared cells, clear by 0.24-0.26). Development 100..1699: 1 fully visible card
# more named, fresh set 27: 4, none lost, none wrong (vision/README.md, fifty-first session)
UNGLARED_CLEAR = True
# The cells a card's glare leaves out must rise against the faces they alone read most like too (this many, past
# glare.RIVALS): a full-bleed purple 12 whose true face was not among the closest rivals had its third column of
# pale pips taken for glare, and read without it, named purple-8 (set 25's 3,096,455; a purple 9 so, purple-6).
# Set 25: those 2 wrong names gone (the 12 named right), 1 fully visible card gained, 1 partly hidden lost; set 26:
# 2 partly hidden lost; set 27: no reading changed; development: 2 fewer named, none wrong (vision/README.md,
# fifty-third session)
GLARED_RIVALS = 2
# a card whose tell lies under another card on top of it is not named (vision.tells)
TELLS_HIDDEN = True
# nor a card whose own print does not show where it differs from a look-alike (vision.tells.Tells.unseen):
# a token over a medallion is found as nothing, and a grey token was read as a grey medallion (fresh scenes
# 3,060,246 and 3,053,216; vision/README.md, thirty-ninth session)
TELLS_UNSEEN = True
# nor a card whose twin (its value in another suit printed in the same ink, whose face differs only in its suit
# signs: tango's jacks of spades and clubs) the image is more like where the two differ, each face first laid onto
# the image (vision.twins): tango's development scenes 3,100,100..3,100,699: all 21 wrong names (spades and clubs)
# more like the twin by 0.02-0.24, none of 1,502 right ones (0.003 and up; vision/README.md, fifty-eighth session)
TWINS = True
# and, its outline seen whole, it is named that twin if the twin reads as surely (the model's thresholds, its margin
# over every card but the one it was read as) and passes the full-size checks (OutlineReader._as_twin): tango's 1,000
# scenes, 20 abstentions named right (19 fully visible), none lost; simplistic's 1,000 the same as with the check
# alone (its 4 abstentions were partly hidden) (vision/README.md, fifty-eighth session)
TWIN_NAMED = True
# the light-free reading (reader: ``contrast``) does not veto a name for its twin on an outline seen whole or one
# nothing lies over: made to tell ink from paper, it cannot surely tell two faces that differ on under 3 % of the
# card in one ink, and the twins' check, which lays them onto the image, decides then. Tango scene 3,100,376: a fully
# visible queen of spades on a glossy table read 0.99, 0.43 clear, vetoed by a light-free reading of the queen of
# clubs 0.968, 0.194 clear. On other outlines the veto stands: 3,100,349's partly hidden queen of clubs, her outline
# fitted 2.5 px off, was like the spades' face once laid (+0.055) and the light-free reading was right
# (vision/README.md, fifty-ninth session)
TWINS_PAST_CONTRAST = True
# nor is a card the twins' check has told from its twins refused for them by the full-size checks, which compare
# the faces as they lie (their photos' scale and outline): tango scene 3,100,717's fully visible jack of spades read
# 0.991, 0.29 clear, like its own face once laid (vision.twins), refused as nearer the jack of clubs (-0.022)
# (vision/README.md, fifty-ninth session). As _as_twin does for a twin named
TWINS_TOLD = True
# A whole outline (or a guess of a face printed in one ink) read from SOFT_FROM, under the threshold even
# blurred, but clear of every rival by CLEAR_MARGIN (a round value over min_margin, not tuned), is named
# when its fit to that face hardly moved it (SMALL_FIT: the outline lies on the face's print) and its
# full-size print is surely the card's, as a narrow reading's must be (FINE_SURE_MARGIN): a sparse face
# washed out on a light table (a yellow 1: two numerals and a pip) reads 0.82-0.89. Style-2 development seeds
# 100..1699: 97.71 -> 98.04 %, none wrong. Named before the fit, a whole purple-10 found 8 px off was named
# purple-9 (0.81, margin 0.30); for any guess, 7 partly hidden many-coloured Passe Eclair cards were named
# as their -rocce look-alikes (vision/README.md, twenty-ninth session)
CLEAR = True
CLEAR_MARGIN = 0.25
CLEAR_ONE_INK = True
# The same goes for an outline its fit moved past SMALL_FIT (Found.FITTED): a glare spot's gradient across a
# washed-out card draws the fit a few px, and the reading stays clear but under even a whole outline's
# threshold (style-2 glossy development scenes, vision/README.md, thirty-fifth session)
CLEAR_FITTED = True
# A fitted outline reading at a whole outline's threshold (not FITTED_EXTRA_CONFIDENCE over it) is named
# when it is clear of every rival by FIT_CLEAR_MARGIN, a round value over CLEAR_MARGIN, not tuned (a
# guess fitted to michi on a photographed table read 0.91, 0.44 clear). Its print must be surely the
# card's, as a narrow reading's. Style-2 development seeds 100..1699: 98.04 -> 98.10 %, none wrong (98.07 %
# held to whole outlines and one-ink guesses as CLEAR is: not needed at these thresholds); fresh seeds
# 3,036,700..3,038,699: 98.06 -> 98.09 %, no more wrong (vision/README.md, thirtieth session)
FIT_CLEAR = True
FIT_CLEAR_MARGIN = 0.35
# A guess left unnamed though it read as clearly as CLEAR asks (from SOFT_FROM, clear by CLEAR_MARGIN) - CLEAR names a
# guess only once its fit hardly moved it, and a many-coloured face's not even then, its telling print perhaps under
# another card (CLEAR_ONE_INK) - is read again once the frame is read, if its corners lie in the frame and no
# outline found lies over it (UNCOVERED_OVERLAP of the smaller), and named as a whole outline's clear reading is,
# its print surely the card's: glare broke a dark-bordered fabi-rocce's outline on a glossy table, its fit drawn
# 3 px off, and its guess, within 1 px, read 0.85, clear by 0.36 (set 25's 3,095,616). Sets 25, 26, 27: 15 fully
# visible and 10 partly hidden cards more named, development 2 and 2, none wrong (vision/README.md, fifty-third session)
UNCOVERED_CLEAR = True
UNCOVERED_OVERLAP = 0.02
# ... and not if the guess is a card cut short (TableBackground.cut_short): its lost side may lie under the card
# beside it, though no outline lies over the guess. An orell 6 of spades under a 7 of clubs, its guess stopped at
# the 7's edge, 56 px wide against a card's 85, showed one column of pips, read as the 3 (0.86, clear by 0.26;
# theme scene 3,100,579). The 30 guesses the rule named right in sets 25-27 and development: none cut short; on
# the themes anglo_poker and orell, that wrong name gone and one partly hidden ace lost (vision/README.md, 54th)
UNCOVERED_UNCUT = True
# A rival whose face differs from the best card's in colour, the card's colours leaning clearly towards its
# own face where the two differ (vision.ink.DifferenceHue.favours), does not hold the coarse margin down:
# a washed-out blue 8 under a warm lamp read 0.02 clear of the green 8 and went unnamed. For a whole
# outline any such rival (up to HUE_TOLD_RIVALS); for guessed and fitted ones, where another card may
# cover the place the faces differ, only a rival printed in another ink (vision.ink.InkCheck.other_ink).
# Style-2 development seeds 100..1699: recall 97.01 -> 97.21 %, none wrong (vision/README.md)
# (only rivals in another ink for whole outlines too: 97.16 %)
HUE_TELLS = True
# The coarse reading measures colour by its amount: a washed-out blue card can read best as the green card of its
# value. Read short of a margin, a card is read instead as the closest of its rivals printed in another but near ink
# (vision.ink.InkCheck.near_ink: a blue and a green; never a green for a yellow, which a warm light leans
# it towards) if its colours lean clearly towards that rival's face where the two differ (DifferenceHue.favours,
# MIN_FAVOUR); the best card is left out of its margin, and every check follows as for any name. Fresh set 15
# (3,074,700..): 10 of its 112 fully visible cards not named right were a blue read best as the green of its value
HUE_NAMED = True
# A card printed in one ink is named only if its colours lean towards its own face by OTHER_INK_LEAN or more
# against each of its closest rivals printed in a near ink (where the two faces differ; a washed-out card whose
# colour is all gone is not judged). Fresh set 15: 1,034 blue and green cards named right leant 0.157 or more
# towards their own face against the near inks of their value; the one named wrong, a dark-bordered blue 9 read
# as the green 9 by 0.15 (3,074,925), leant 0.071 towards the blue
OTHER_INK_LEAN = 0.05
HUE_TOLD_RIVALS = 2
# A guess of a card printed in one ink, named as snapped and fitted to that face (CardRecogniser._confirmed),
# whose fit names nothing at a fitted outline's thresholds keeps its name if the fit names it at a guess's: on
# full-bleed art the fit can land a few px further off. Not a many-coloured face: there the name may rest on a
# medallion another card covers (style-2 seeds 3,026,700..3,028,699: 16 names kept so, the 2 wrong ones
# `fabi-vanessa` and `marlon-vanessa` partly hidden, named as their `-rocce` look-alikes; vision/README.md)
CONFIRM_AT_GUESS = True
# a whole outline named under this confidence is fitted to the named face and read again; the fit's name, if
# another, wins. Whole outlines 6 and 11 px off read 0.90-0.91 as another value of their ink, 0.97-0.98 at their
# true corners (fresh set 16). 0.93 is set 16's, not tuned: fresh sets 18 and 19 read the same with it
# (vision/README.md)
CONFIRM_WHOLE_BELOW = 0.93
BORDER_GROW = 1.1   # an outline that names nothing is tried this much larger (a border lost on a dark table)
# a whole outline of a lined deck's card (vision.border.faces_and_line), its rim paper to the edge on a side, is moved
# out there by the deck's line width before it is read (OutlineReader._onto_line). Chosen on tango's scenes
# 3,100,100..3,100,699 (vision/README.md, fifty-seventh session); read on the other themes and tango's other 400
ONTO_LINE = True
# an unnamed outline printed less than this share of the faintest enrolled face is blank: glare,
# a phone's back, a hand (vision.features.print_contrast). A round half, not tuned; the limit
# follows the owner's faces (the measure's floor was chosen on style-2 development seeds)
BLANK_SHARE = 0.5

DARK_RIM = 70.0   # mean grey of a card's outer rim below which it may be a printed dark border
