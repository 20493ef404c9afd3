import sys

from app.translations import problems, update

if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else "update"
    if command == "update":
        update()
    found = list(problems())
    for problem in found:
        print(problem)
    sys.exit(1 if found and command == "check" else 0)
