"""An independent count of `lab blunders`' definition, with python-chess.

Usage: python3 count_blunders.py GAMES.pgn DEPTH ENGINE
Prints one JSON object: per player, moves judged, blunders, mistakes,
inaccuracies and the average centipawn loss.

The definition, from the issue and lichess (lila): the referee scores each
position once, from ucinewgame, with the game's moves as history, to a fixed
depth; a score is for the side to move, capped at +-1000 cp, a mate is
+-1000; the mover's winning chances are 2/(1+exp(-0.00368208*cp))-1; a drop
of 0.3 or more is a blunder, 0.2 a mistake, 0.1 an inaccuracy; the cp loss
is max(0, capped before - capped after). Book moves ({book}) are not judged.
This file shares no code with the lab.
"""
import collections
import json
import math
import sys

import chess
import chess.engine
import chess.pgn

PGN, DEPTH, ENGINE = sys.argv[1], int(sys.argv[2]), sys.argv[3]
engine = chess.engine.SimpleEngine.popen_uci(ENGINE)
engine.configure({"Hash": 16})


def capped(board):
    """The referee's capped score of `board` for its side to move."""
    if board.is_checkmate():
        return -1000
    if board.is_stalemate():
        return 0
    # A new game object each time: python-chess then sends ucinewgame.
    info = engine.analyse(board, chess.engine.Limit(depth=DEPTH), game=object())
    score = info["score"].pov(board.turn)
    if score.is_mate():
        return 1000 if score.mate() > 0 else -1000
    return max(-1000, min(1000, score.score()))


def chances(cp):
    return 2 / (1 + math.exp(-0.00368208 * cp)) - 1


stats = collections.defaultdict(collections.Counter)
with open(PGN) as handle:
    while (game := chess.pgn.read_game(handle)) is not None:
        names = {chess.WHITE: game.headers["White"], chess.BLACK: game.headers["Black"]}
        board = game.board()
        nodes = list(game.mainline())
        scores = [capped(board)]
        for node in nodes:
            board.push(node.move)
            scores.append(capped(board))
        board = game.board()
        for ply, node in enumerate(nodes):
            mover = names[board.turn]
            board.push(node.move)
            if node.comment.strip().lower() == "book":
                continue
            before, after = scores[ply], -scores[ply + 1]
            drop = chances(before) - chances(after)
            stats[mover]["moves"] += 1
            stats[mover]["cp_loss"] += max(0, before - after)
            for name, bound in (("blunders", 0.3), ("mistakes", 0.2), ("inaccuracies", 0.1)):
                if drop >= bound:
                    stats[mover][name] += 1
                    break
engine.quit()
print(json.dumps({
    name: {
        "moves": counts["moves"],
        "blunders": counts["blunders"],
        "mistakes": counts["mistakes"],
        "inaccuracies": counts["inaccuracies"],
        "acpl": round(counts["cp_loss"] / counts["moves"], 1) if counts["moves"] else None,
    }
    for name, counts in sorted(stats.items())
}, sort_keys=True))
