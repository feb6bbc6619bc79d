"""Small games worked out by hand from the rules, shared by the rules and record tests."""

LOOP_GAME = "@0/ B1\\ A2\\"
# A1 = white N,W (red S,E). B1\ shows red west: white N,E, red S,W. A2\ shows red north: white
# S,W, red N,E. B2 then has red from the north and from the west: forced, red N,W. The four red
# quarter-circles close a loop, made by white's third move: the opponent (black) wins.

LINE_GAME = "@0+ B1+ C1+ D1+ E1+ F1+ G1+ H1+"
# @0+ runs red east-west; every B1+ ... H1+ continues it. After H1+ (move 8, black's) the tiles
# span 8 columns and the red track joins the left edge to the right edge: black wins by line.
