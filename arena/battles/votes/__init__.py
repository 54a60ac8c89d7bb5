"""Votes: battles as Chatbot-Arena-style rows (from vote files, logs and runs), and people voting
on blind pairs."""
