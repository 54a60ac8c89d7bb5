"""Votes: battles read as Chatbot-Arena-style rows from vote files, logs and runs
(:mod:`arena.battles.votes.reading`), and people voting on blind pairs
(:mod:`arena.battles.votes.ballots`)."""
