"""The selected branch along the bottom: state chart, filmstrip and the branch player."""
