"""Reading a turn written in Japanese: its words, put into the English words the sketch world knows.

Japanese writes no spaces between words and bends its verbs at the end ("走る", "走っている",
"走ります", "走らない"), so the English reader cannot see a word in "美咲が夜の港でゆっくり歩く".
This module finds the Japanese words of the world (motions, places, times of day, camera
moves, adverbs of level) as Japanese writes them and puts each one's English word in its
place, with spaces around: "美咲 が night の harbour で slowly walk". The English reader then
reads the turn as it reads any other, so what is understood and what is not show exactly as
for an English turn; a text with no Japanese in it is never touched.

Matching takes the longest word first at each place in the text ("夕方" is evening, "夜明け"
dawn, not night), and a one-character word only where it stands alone: "海" is the sea in
"海で泳ぐ", but not in "海老" (a prawn), and "空" not in "空港" (an airport). A name of the
cast (or of the project's places) is kept as it is written, set apart from its neighbours, so
that a character named 海 is someone, not the sea.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from studio.core.instruction import Instruction, time_words
from studio.engines.sketch.translated import fields_in_english

_GODAN_ROWS: dict[str, str] = {
    "く": "かきくけこい", "ぐ": "がぎぐげごい", "す": "さしすせそ", "つ": "たちつてとっ", "ぬ": "なにぬねのん",
    "ぶ": "ばびぶべぼん", "む": "まみむめもん", "る": "らりるれろっ", "う": "わいうえおっ",
}
"""The kana a godan verb's stem is followed by, for each ending of its dictionary form
(the five rows, and the sound a te/ta form changes it to: 歩いて, 走って, 読んで)."""
_ICHIDAN_NEXT = "るれろよたてなまさずら"
"""The kana an ichidan verb's stem is followed by: 食べる, 食べた, 食べて, 食べない, 食べます, 食べよう."""
_SURU_NEXT = ""
"""A noun read as a motion (ジャンプ, 散歩) may be followed by anything but another kanji or katakana."""
_SURU_ENDINGS = "しすさせ"
"""The kana a word that takes する goes on with (のんびりする, のんびりして, のんびりした)."""

SENTENCE_ENDS = frozenset("。．.!?！？\n")
"""Where a sentence ends: what is done meanwhile (泣きながら) is said before it, after the sentence's motion."""
_NEGATIVE_RE = re.compile(r"ない|なく|なかっ|ません|^[ぁ-ゖ]?ず")
_SURU_NEGATED_RE = re.compile(r"を?(?:しない|しなかっ|しなく|しません|せず)")
"""する not done after a noun of a motion: ジョギングしない, ジャンプしなかった, 散歩をしません."""
"""In the ending of a verb, what says it is not done: 走らない, 走っていない, 歩きません, 走らずに."""

POSITION_SUFFIXES = frozenset("中内前外辺際側上下奥裏")
"""Kanji that may follow a place and leave it that place: 公園内, 森の奥, 学校前."""
SUFFIX_PLACES = frozenset("山川駅港町村寺池橋店湖")
"""One-kanji places that also end a place's name: 富士山, 隅田川, 東京駅, 港町."""


@dataclass(frozen=True, slots=True)
class JapaneseWord:
    """One Japanese word and the English words it is read as.

    ``follow``: for a verb's stem, the kana its endings start with (the stem is read only
    before one of them); '' for a word read as it is written."""

    written: str
    english: str
    follow: str = _SURU_NEXT

    @property
    def verb(self) -> bool:
        return bool(self.follow)

    @property
    def dictionary_form(self) -> str:
        """The word as a dictionary writes it (a verb's stem and the u-row ending of its row:
        走 + る, 歩 + く, 食べ + る), to be offered to an author."""
        if not self.verb:
            return self.written
        if self.follow == _SURU_ENDINGS:
            return self.written + "する"
        return self.written + ("る" if self.follow.startswith("る") else self.follow[2])


def _words(pairs: str) -> tuple[JapaneseWord, ...]:
    """Words written as 'japanese=english' pairs, separated by commas ("港=harbour, 公園=park").

    A verb is written in its dictionary form with a mark: "走る:5=run" (godan) or "食べる:1=eat" (ichidan)."""
    out: list[JapaneseWord] = []
    for pair in pairs.split(","):
        if not pair.strip():
            continue
        written, english = (part.strip() for part in pair.split("="))
        if written.endswith(":5"):
            form = written[:-2]
            out.append(JapaneseWord(form[:-1], english, _IRREGULAR_FOLLOW.get(form[:-1], _GODAN_ROWS[form[-1]])))
        elif written.endswith(":1"):
            out.append(JapaneseWord(written[:-3], english, _ICHIDAN_NEXT))
        else:
            out.append(JapaneseWord(written, english))
    return tuple(out)


_IRREGULAR_FOLLOW = {"行": "かきくけこっ"}
"""Stems whose endings are not their row's: 行く is 行って, not 行いて."""


MOTION_WORDS = _words(
    # idle
    "立つ:5=stand, 立ち上がる:5=stand up, 待つ:5=wait, 止まる:5=stop, 立ち止まる:5=stop, じっとする=stand still,"
    "休憩=relax, 佇む:5=stand still, くつろぐ:5=relax, 寛ぐ:5=relax,"
    # walk
    "歩く:5=walk, 散歩=take walk, 散策=stroll, 行く:5=go, 向かう:5=head, 進む:5=move, 帰る:5=go, 行進=march,"
    "さまよう:5=wander, うろうろ=wander around, ぶらぶら=stroll,"
    # run
    "走る:5=run, 駆ける:1=run, 駆け出す:5=dash, ダッシュ=dash, ジョギング=jog, 急ぐ:5=hurry, 駆けっこ=race,"
    "走り回る:5=run around,"
    # sneak
    "忍び足=tiptoe, 忍び寄る:5=creep, 忍び込む:5=sneak, 這う:5=crawl, 抜き足=tiptoe,"
    # jump
    "跳ぶ:5=jump, 跳ねる:1=jump, 飛び跳ねる:1=jump, ジャンプ=jump, スキップ=skip, 飛び上がる:5=leap, 飛び降りる:1=leap,"
    # fly on broomstick (Japanese has no one word for riding a broom: ほうきで飛ぶ and ほうきに乗る are read in parts)
    "飛ぶ:5=fly, 飛び回る:5=fly around, 飛行=fly, ほうき=broom, 箒=broom, ほうきに乗る:5=ride broom,"
    "箒に乗る:5=ride broom, 舞い上がる:5=soar, 浮かぶ:5=hover, 飛び立つ:5=take off,"
    # hold broom ("持つ" is read as "hold": with a broom, the broom is held)
    "ほうきを持つ:5=hold broom, 箒を持つ:5=hold broom, 持つ:5=hold, 抱える:1=carry,"
    # sweep
    "掃く:5=sweep, 掃除=clean, 片付ける:1=tidy, 片づける:1=tidy,"
    # sit (a seat word stays: ベンチに座る sits on the bench)
    "座る:5=sit, すわる:5=sit, 腰掛ける:1=sit, 腰かける:1=sit, 着席=take seat, 正座=kneel, ひざまずく:5=kneel,"
    "ベンチ=bench, 椅子=chair, いす=chair, イス=chair, ソファ=sofa, ソファー=sofa, スツール=stool, 床=floor,"
    "地面=ground,"
    # sit on railing (no one word either: 手すりに座る is read as "railing" and "sit")
    "手すり=railing, 手摺り=railing, 柵=fence, フェンス=fence, 塀=wall, 欄干=railing,"
    # lie down
    "横になる:5=lie down, 寝転ぶ:5=lie down, 寝ころぶ:5=lie down, 寝そべる:5=lie down, 休む:5=rest,"
    # sleep
    "寝る:1=sleep, 眠る:5=sleep, 寝坊=sleep, 昼寝=take nap, 居眠り=doze, うたた寝=doze, 就寝=go bed,"
    # turn head
    "振り向く:5=turn head, 振り返る:5=look back, ちらっと見る:1=glance, 横を向く:5=turn face,"
    # look around
    "見る:1=look, 見回す:5=look around, 見渡す:5=look around, 眺める:1=gaze, 探す:5=search, 観察=observe,"
    "見つめる:1=stare, 覗く:5=peek, のぞく:5=peek, 見上げる:1=look up, 見下ろす:5=look down, 探検=explore,"
    "観光=sightsee,"
    # wave
    "手を振る:5=wave hand, 手をふる:5=wave hand, 挨拶=greet, あいさつ=greet, 手招き=beckon, 見送る:5=farewell,"
    # talk
    "話す:5=talk, しゃべる:5=chat, 喋る:5=chat, おしゃべり=chat, 会話=converse, 囁く:5=whisper, ささやく:5=whisper,"
    "呼ぶ:5=call, 尋ねる:1=ask, 言う:5=say, 相談=discuss, 電話=phone, スマホ=phone, スマートフォン=phone, 携帯=phone,"
    "ケータイ=phone,"
    # meet people (no word for "socialise": 会う, 友達に会う)
    "会う:5=meet, 出会う:5=meet, 友達=friend, 友だち=friend, 訪ねる:1=visit, 訪れる:1=visit,"
    # hug
    "抱きしめる:1=hug, 抱き締める:1=hug, 抱き合う:5=embrace, ハグ=hug, 手をつなぐ:5=hold hand, 手を繋ぐ:5=hold hand,"
    # laugh
    "笑う:5=laugh, 微笑む:5=smile, ほほえむ:5=smile, にっこり=smile, 笑顔=smile, くすくす=giggle,"
    # cry
    "泣く:5=cry, 涙=tear, すすり泣く:5=sob, 泣き出す:5=cry, 悲しむ:5=be sad,"
    # dance
    "踊る:5=dance, おどる:5=dance, ダンス=dance, バレエ=ballet, 舞う:5=dance,"
    # spin
    "回る:5=spin, 回転=rotate, くるくる=twirl, くるりと=twirl, 一回転=spin,"
    # sing
    "歌う:5=sing, うたう:5=sing, 歌=song, 鼻歌=hum, カラオケ=karaoke,"
    # play
    "遊ぶ:5=play, ボール遊び=play ball, ボール=ball, ゲーム=game, 球技=play ball,"
    # eat
    "食べる:1=eat, たべる:1=eat, 食事=dine, おやつ=snack, 朝ごはん=breakfast, 朝食=breakfast, 昼ごはん=lunch,"
    "昼食=lunch, お弁当=lunch, 弁当=lunch, 晩ごはん=dinner, 夕ごはん=dinner, 夕食=dinner, パン=bread,"
    "かじる:5=bite, 味わう:5=taste,"
    # drink
    "飲む:5=drink, お茶=tea, 紅茶=tea, コーヒー=coffee, 牛乳=milk, ミルク=milk, ジュース=juice,"
    "ココア=cocoa, すする:5=sip,"
    # cook
    "料理=cook, 焼く:5=bake, 炒める:1=fry, 混ぜる:1=stir, 調理=cook,"
    # read
    "読む:5=read, 読書=read, 本=book, 勉強=study, 手紙=letter, 地図=map,"
    # write
    "書く:5=write, 描く:5=draw, 絵を描く:5=draw, スケッチ=sketch, 宿題=homework, メモ=note,"
    "落書き=doodle, 塗る:5=paint,"
    # swim
    "泳ぐ:5=swim, およぐ:5=swim, 水泳=swim, 潜る:5=dive, もぐる:5=dive, 水遊び=splash, 浮く:5=float,"
    # fall
    "転ぶ:5=fall, ころぶ:5=fall, 落ちる:1=fall, つまずく:5=trip, 躓く:5=trip, 滑る:5=slip,"
    "倒れる:1=collapse, 転倒=fall,"
    # climb
    "登る:5=climb, のぼる:5=climb, よじ登る:5=clamber, 木登り=climb tree, はしご=ladder, 梯子=ladder,"
    # stretch
    "伸び=stretch, 背伸び=stretch, ストレッチ=stretch, あくび=yawn, 欠伸=yawn, 体操=exercise, 準備運動=warm up,"
    "運動=exercise,"
    # kick
    "蹴る:5=kick, キック=kick, 踏む:5=stomp, 地団駄=stomp,"
    # punch
    "殴る:5=hit, 叩く:5=hit, たたく:5=hit, パンチ=punch, 戦う:5=fight, たたかう:5=fight, 空手=karate, 稽古=train,"
    "ボクシング=box,"
    # bow
    "お辞儀=bow, おじぎ=bow, 頭を下げる:1=bow head, 会釈=bow, 感謝=thank,"
    # nod
    "頷く:5=nod, うなずく:5=nod,"
    # throw
    "投げる:1=throw, なげる:1=throw, 放る:5=toss, 雪合戦=throw,"
    # catch
    "捕る:5=catch, 捕まえる:1=catch, つかまえる:1=catch, 受け取る:5=receive, キャッチ=catch,"
    # shiver
    "震える:1=shiver, ふるえる:1=shiver, 凍える:1=freeze, 寒い=cold, 寒がる:5=be cold, ぶるぶる=tremble,"
    # clap
    "拍手=applaud, 手を叩く:5=clap hand, 手をたたく:5=clap hand, 祝う:5=celebrate, 応援=cheer,"
    # think
    "考える:1=think, かんがえる:1=think, 思う:5=think, 思い出す:5=remember, 想像=imagine, 夢見る:1=dream, 夢=dream,"
    "悩む:5=ponder, 空想=daydream,"
    # pray
    "祈る:5=pray, いのる:5=pray, 願う:5=wish, 願い事=make wish, 瞑想=meditate, 合掌=clasp hand, お参り=pray,"
    # shout
    "叫ぶ:5=shout, さけぶ:5=shout, 怒鳴る:5=yell, 大声=shout, 呼びかける:1=call out,"
    # point
    "指差す:5=point, 指さす:5=point, 指す:5=point,"
    # carry
    "運ぶ:5=carry, はこぶ:5=carry, 届ける:1=deliver, 荷物=package, 箱=package, 小包=parcel, 持ち上げる:1=lift,"
    "配達=deliver,"
    # sulk
    "すねる:1=sulk, 拗ねる:1=sulk, ふくれる:1=pout, むくれる:1=pout, 怒る:5=get angry, おこる:5=get angry,"
    "ぷんぷん=fume,"
)
"""A Japanese word for each motion of :data:`~studio.engines.sketch.vocabulary.MOTIONS` (and
the seats and props its phrases name). Verbs written in kana only are read as well where the
kana are no particle or ending of another word ("すわる", "おどる")."""

MOTION_WORDS += tuple(JapaneseWord(written, english, _SURU_ENDINGS) for written, english in (
    ("のんびり", "relax"), ("ゴロゴロ", "laze"), ("ごろごろ", "laze"), ("ダラダラ", "laze"), ("だらだら", "laze")))
"""Words that are a motion only with する after them: のんびりする relaxes, のんびり歩く walks
leisurely (のんびり alone is an adverb, :data:`ADVERB_WORDS`)."""

OVER_WORDS = _words("飛び越える:1=leap, 跳び越える:1=leap, 飛び越す:5=leap, 跳び越す:5=leap,"
                    "電車に乗る:5=ride train, バスに乗る:5=ride bus")
"""Jumps over something (水たまりを飛び越える): a leap, not the flight 飛ぶ would read 飛 as; a ride
on a train or bus (電車に乗る), read as "rides the train" is. Read, not offered as words of a
motion (the menus offer 跳ぶ and ジャンプ)."""

STAND_IN_WORDS = _words("ジャグリング=juggle, スケート=skate, スキー=ski, サーフィン=surf, ヨガ=yoga, 隠れる:1=hide")
"""Activities the world has no motion for, read as the English words for them, which the reader
shows as a motion near them, said (:data:`~studio.engines.sketch.vocabulary.UNKNOWN_MOTION_HINTS`:
ジャグリングする as "juggles" is). Not offered as words of a motion."""

INSTRUMENT_WORDS = _words(
    "弾く:5=play, 演奏=play, ギター=guitar, ピアノ=piano, バイオリン=violin, ヴァイオリン=violin, ドラム=drum,"
    "太鼓=taiko, フルート=flute, トランペット=trumpet, チェロ=cello, ウクレレ=ukulele, ハープ=harp, 三味線=shamisen,"
    "琴=koto, 楽器=instrument, ハーモニカ=harmonica, サックス=saxophone, キーボード=piano"
)
"""Instruments and the verbs they are played with (ギターを弾く, ピアノを演奏する): no motion of the
world, shown as singing, said, as the English "plays the guitar" is
(:data:`~studio.engines.sketch.vocabulary.INSTRUMENTS`). Not offered as words of a motion."""

PLACE_WORDS = _words(
    # sky
    "空=sky, 大空=sky, 青空=sky, 空中=midair, 雲=cloud, 上空=high sky, 天=heaven,"
    # countryside
    "田舎=countryside, 田園=countryside, 畑=field, 農場=farm, 田んぼ=farmland, 麦畑=wheat field, 丘=hill,"
    # town (港町: a harbour town is drawn as the town)
    "町=town, 街=town, 都会=city, 市場=market, 広場=plaza, 村=village, 港町=harbour town, 商店街=market,"
    "街中=downtown, 下町=town,"
    # grass
    "草原=meadow, 芝生=lawn, 草むら=grass, 野原=meadow, 原っぱ=meadow,"
    # street
    "道=road, 道路=road, 通り=street, 路地=alley, 歩道=sidewalk, 横断歩道=crosswalk, 交差点=crossing, 夜道=night road,"
    "並木道=avenue,"
    # bedroom
    "部屋=room, 寝室=bedroom, 自室=my room, 家=home, 自宅=home, 屋根裏=attic, ベッド=bed, 布団=bed,"
    "室内=indoors, 居間=living room, リビング=living room,"
    # forest
    "森=forest, 林=wood, 森林=woodland, 木=tree, 木々=tree, 樹=tree, ジャングル=jungle,"
    # beach
    "浜辺=beach, 浜=beach, 砂浜=beach, ビーチ=beach, 海岸=coast, 海辺=seaside, 湾=bay, 砂=sand,"
    # sea (港: a harbour is drawn as the sea's edge)
    "海=sea, 港=harbour, 大海=ocean, 海原=ocean, 波=ocean, 桟橋=pier, 船=boat, 波止場=pier,"
    # bakery
    "パン屋=bakery, ケーキ屋=pastry shop, 店=shop, お店=shop, 売店=store, 商店=store,"
    # station
    "駅=station, 電車=railway, 線路=railway, 地下鉄=subway, バス停=bus stop, ホーム=platform, 鉄道=railway,"
    # park
    "公園=park, 遊び場=playground, ブランコ=swing, 噴水=fountain,"
    # river
    "川=river, 河=river, 小川=stream, 橋=bridge, 湖=lake, 池=pond, 川辺=riverside, 川岸=riverbank, 河原=riverbank,"
    "川沿い=riverside,"
    "運河=canal,"
    # mountain
    "山=mountain, 山々=mountains, 崖=cliff, 山頂=summit, 頂上=peak, 峠=mountainside,"
    # school
    "学校=school, 校庭=schoolyard, 高校=school, 中学校=school, 小学校=school, 校門=school gate, キャンパス=campus,"
    "学園=school,"
    # classroom
    "教室=classroom, 授業=lesson, 黒板=blackboard,"
    # cafe
    "カフェ=cafe, 喫茶店=coffee shop, レストラン=restaurant, 食堂=diner, 茶屋=tea house,"
    # kitchen
    "台所=kitchen, キッチン=kitchen, 厨房=kitchen, コンロ=stove,"
    # library
    "図書館=library, 図書室=library, 本屋=bookstore, 書店=bookstore, 本棚=bookshelf, 書斎=study room,"
    # rooftop
    "屋上=rooftop, 屋根=roof, ベランダ=balcony, バルコニー=balcony, テラス=terrace,"
    # shrine
    "神社=shrine, 寺=temple, お寺=temple, 寺院=temple, 鳥居=torii, 塔=pagoda,"
    # garden
    "庭=garden, 庭園=garden, 花畑=flower garden, 花=flower, 温室=greenhouse, 裏庭=backyard,"
    # places not drawn, read as their English word so the warning names their stand-in
    "空港=airport, 病院=hospital, 城=castle, お城=castle, 島=island, 砂漠=desert, 火山=volcano, 洞窟=cave, 雪=snow,"
    "宇宙=space, 教会=church, 博物館=museum, 美術館=museum, 動物園=zoo, 会社=office, オフィス=office,"
    "スーパー=supermarket, 競技場=stadium, 浴室=bathroom, お風呂=bath, バー=bar, 居酒屋=bar, トイレ=bathroom,"
    "洗面所=bathroom, 宮殿=palace, 王宮=palace, ショッピングモール=mall,"
    "モール=mall,"
)
"""A Japanese word for each place of :data:`~studio.engines.sketch.vocabulary.LOCATIONS`."""

TIME_WORDS = tuple(JapaneseWord(word.written, word.english) for word in time_words("ja"))
"""A Japanese word for each time of day (day, sunset, night) and the words drawn as one: the
core's list (:data:`~studio.core.instruction.CJK_TIME_WORDS`), which also says how each is drawn."""

CAMERA_WORDS = _words(
    # static
    "固定=static, 据え置き=fixed, 定点=fixed, 静止=still, 三脚=tripod, 引き=wide, 全景=wide shot, ロング=wide shot,"
    "ワイド=wide,"
    # pan ("truck" has no word of its own: 横移動 is read as it)
    "パン=pan, 横移動=truck, ティルト=tilt, スライド=slide,"
    # follow
    "追う:5=follow, 追いかける:1=follow, 追従=follow, フォロー=follow, 追跡=track, トラッキング=tracking,"
    "ドリー=dolly,"
    # zoom
    "ズーム=zoom, ズームイン=zoom in, ズームアウト=zoom out, アップ=close up, クローズアップ=close up, 寄り=close,"
    # orbit
    "回り込む:5=orbit, 回り込み=orbit, 周回=orbit, 一周=orbit, 旋回=circle, ぐるりと=around, カメラ=camera,"
)
"""A Japanese word for each camera move of :data:`~studio.engines.sketch.vocabulary.CAMERA_PHRASES`."""

ADVERB_WORDS = _words(
    # level 1
    "ゆっくり=slowly, ゆったり=leisurely, そっと=gently, 優しく=gently, やさしく=gently, 穏やかに=calmly,"
    "だるそうに=lazily, 眠そうに=sleepily, 疲れて=tiredly, 静かに=quietly, 柔らかく=softly,"
    # level 2
    "のんびり=leisurely, 落ち着いて=calmly, 慎重に=carefully, 注意深く=carefully, 恥ずかしそうに=shyly,"
    "照れくさそうに=shyly, 悲しそうに=sadly, 寂しそうに=sadly, 不安そうに=nervously, おずおず=nervously,"
    "軽く=lightly, 軽やかに=lightly, 気軽に=casually, 興味深そうに=curiously,"
    # level 3
    "普通に=normally, 滑らかに=smoothly, 着実に=steadily, 楽しそうに=happily, 楽しく=happily, 嬉しそうに=happily,"
    "うれしそうに=happily, 誇らしげに=proudly, 陽気に=cheerfully, 明るく=cheerfully, 優雅に=gracefully,"
    "不器用に=clumsily, おどけて=playfully, 笑顔で=cheerfully, にこにこ=cheerfully, ニコニコ=cheerfully,"
    # level 4
    "速く=quickly, 早く=quickly, はやく=quickly, 素早く=swiftly, すばやく=swiftly, 急いで=hurriedly, さっと=quickly,"
    "わくわく=excitedly, 張り切って=eagerly, 怒って=angrily, 大胆に=boldly, てきぱき=briskly,"
    # level 5
    "元気に=energetically, 元気よく=energetically, 激しく=wildly, 全力で=powerfully, 力強く=powerfully,"
    "猛烈に=furiously, 必死に=frantically, 思い切り=vigorously, 思いっきり=vigorously,"
)
"""A Japanese word for the adverbs of level (:data:`~studio.engines.sketch.vocabulary.ADVERB_LEVELS`):
one or more for each level, as most English adverbs of a level share one Japanese word."""


def _table(*groups: Iterable[JapaneseWord]) -> dict[str, tuple[JapaneseWord, ...]]:
    """The words of ``groups`` by their first character, longest first; a word already in an
    earlier group keeps that group's reading (パン is bread in a turn, a pan only for the camera).

    A verb's stem and a word written the same are two words, each kept: 歌 is the stem of 歌う
    (sing), read before its endings (歌う, 歌って), and the noun song, read where it stands
    alone (歌を歌う, a turn "歌"). The stem is listed first, so an ending after it reads the verb."""
    seen: dict[tuple[str, bool], JapaneseWord] = {}
    for group in groups:
        for word in group:
            seen.setdefault((word.written, word.verb), word)
    by_first: dict[str, list[JapaneseWord]] = {}
    for word in seen.values():
        by_first.setdefault(word.written[0], []).append(word)
    return {first: tuple(sorted(words, key=_longest_first)) for first, words in by_first.items()}


def _longest_first(word: JapaneseWord) -> tuple[int, bool]:
    """Longer words first; of two written alike, the verb's stem (read only before its endings)."""
    return -len(word.written), not word.verb


TEXT_TABLE = _table(ADVERB_WORDS, MOTION_WORDS, OVER_WORDS, INSTRUMENT_WORDS, STAND_IN_WORDS, TIME_WORDS,
                    PLACE_WORDS, CAMERA_WORDS)
"""What a Motion field or free text is read with: everything."""
PLACE_TABLE = _table(TIME_WORDS, PLACE_WORDS, MOTION_WORDS)
"""What a Background field is read with: places and times first."""
TIME_TABLE = _table(TIME_WORDS)
CAMERA_TABLE = _table(CAMERA_WORDS)
ADVERB_TABLE = _table(ADVERB_WORDS)


def _script(ch: str) -> str:
    """'kanji', 'katakana', 'hiragana' or '' (anything else, and no character) for one character."""
    if len(ch) != 1:
        return ""
    if "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf" or ch in "々〆":
        return "kanji"
    if "\u30a0" <= ch <= "\u30ff" or ch == "ー":
        return "katakana"
    if "\u3040" <= ch <= "\u309f":
        return "hiragana"
    return ""


def has_japanese(text: str) -> bool:
    """Whether ``text`` writes anything in Japanese script (kana or kanji)."""
    return any(_script(ch) for ch in text)


def _stands_alone(text: str, start: int, word: JapaneseWord) -> bool:
    """Whether ``word`` written at ``start`` of ``text`` is that word, not a part of a longer one.

    A verb's stem is followed by one of its endings; a word ending in a kanji is not followed by
    another kanji (but by a kanji of position: 公園内, 森の奥); a katakana word is not followed by
    more katakana (パン is not in パンチ). A word of one kanji is not written after a kanji either
    (海 is not in 深海魚, 空 not in 大空港), except a place that ends names (富士山, 東京駅)."""
    end = start + len(word.written)
    after = text[end] if end < len(text) else ""
    before = text[start - 1] if start > 0 else ""
    if word.verb:
        if after == "" or after not in word.follow:
            return False
    else:
        last = _script(word.written[-1])
        if last == "kanji" and _script(after) == "kanji" and after not in POSITION_SUFFIXES:
            return False
        if last == "katakana" and _script(after) == "katakana":
            return False
    one_kanji = len(word.written) == 1 and _script(word.written) == "kanji"
    return not (one_kanji and _script(before) == "kanji" and word.written not in SUFFIX_PLACES)


def _word_at(text: str, start: int, table: Mapping[str, tuple[JapaneseWord, ...]]) -> JapaneseWord | None:
    """The longest word of ``table`` written at ``start`` of ``text`` as a word of its own."""
    for word in table.get(text[start], ()):
        if text.startswith(word.written, start) and _stands_alone(text, start, word):
            return word
    return None


def _ending(text: str, start: int, table: Mapping[str, tuple[JapaneseWord, ...]]) -> int:
    """Where the kana ending a verb (走っている, 歩きながら) stops: at the first character that
    is no hiragana, where a word of ``table`` starts (食べながらお茶を: お茶 is a word), or at
    "after" in kana (食べたあとで走る: :data:`_AFTER_KANA`)."""
    end = start
    while end < len(text) and _script(text[end]) == "hiragana" and (end == start or (
            _word_at(text, end, table) is None and not text.startswith(_AFTER_KANA, end))):
        end += 1
    return end


_AFTER_KANA = ("あとで", "あとに")
""""After" written in kana, which ends the verb before it rather than bending it (食べたあとで)."""


def _names_at(text: str, start: int, names: tuple[str, ...]) -> str:
    """The longest of ``names`` written at ``start`` of ``text`` ('' when none is)."""
    return next((name for name in names if text.startswith(name, start)), "")


PLACE_PARTICLES = ("で", "へ")
"""Particles that follow where something is done (海で泳ぐ, 森へ行く), never the one it is done with."""


def _a_place_here(name: str, word: JapaneseWord | None, text: str, start: int) -> bool:
    """Whether the cast member's ``name`` written at ``start`` of ``text`` is ``word``, the word
    of ours written there, as a place: followed by で or へ ("美咲が海で泳ぐ" swims in the sea,
    even with a 海 in the cast; "海と泳ぐ", "海が泳ぐ" are with or by 海)."""
    return word is not None and word.written == name and text.startswith(PLACE_PARTICLES, start + len(name))


def in_english_words(text: str, table: Mapping[str, tuple[JapaneseWord, ...]] = TEXT_TABLE,
                     names: Iterable[str] = ()) -> str:
    """``text`` with the Japanese words of ``table`` put into their English words, spaced apart
    ("夜の港" -> " night の harbour "); ``names`` (the cast's, the project's places') are kept as
    written, spaced apart from what is around them. A verb that says it is not done
    ("走らない") is read "not run," (a negation ends at the comma); one done meanwhile
    ("泣きながら帰った") is read after its sentence's motion, "while cry", so that the motion
    shown is the sentence's, as in "goes home crying". A text with no Japanese word of ours, or
    none in Japanese at all, comes back as it is."""
    if not has_japanese(text):
        return text
    written = tuple(sorted({n for n in names if n and has_japanese(n)}, key=len, reverse=True))
    out: list[str] = []
    meanwhile: list[str] = []  # what is done while the motion of the sentence is ("泣きながら"): said after it
    found = spaced = False
    i = 0
    while i < len(text):
        name = _names_at(text, i, written)
        word = _word_at(text, i, table)
        if name and not (word is not None and len(word.written) > len(name)) and not _a_place_here(name, word, text, i):
            out.append(f" {name} ")  # a longer word of ours goes first: 空港 is an airport, with a 空 in the cast
            i += len(name)
            spaced = True
            continue
        if word is None:
            if text[i] in SENTENCE_ENDS:
                out += meanwhile
                meanwhile = []
            out.append(text[i])
            i += 1
            continue
        found = True
        i += len(word.written)
        if word.verb:
            end = _ending(text, i, table)
            negated = bool(_NEGATIVE_RE.search(text[i:end]))
            while_doing = "ながら" in text[i:end] and not negated
            i = end
            if while_doing:  # "泣きながら帰った": the going home is shown, the crying is how
                meanwhile.append(f" while {word.english} ")
                continue
            out.append(_not_done(out, word.english) if negated else f" {word.english} ")
        elif _SURU_NEGATED_RE.match(text, i):  # "ジョギングしない": a noun done with する, not done
            out.append(f" not {word.english}, ")
        else:
            out.append(f" {word.english} ")
    return re.sub(r" {2,}", " ", "".join(out + meanwhile)).strip() if found or spaced else text


def _not_done(out: list[str], english: str) -> str:
    """A verb's ``english`` said not done, with the thing it is done to written just before it
    with を (the English words ``out`` ends with), which the negation takes along: "本を読まない"
    is "not read book," (as "does not read a book" is), not a book read."""
    k = len(out) - 1
    while k >= 0 and not out[k].strip():
        k -= 1
    if k >= 1 and out[k] == "を" and out[k - 1].startswith(" ") and out[k - 1].endswith(" "):
        thing = out[k - 1].strip()
        del out[k - 1:]
        return f" not {english} {thing}, "
    return f" not {english}, "


_FIELD_TABLES: dict[str, Mapping[str, tuple[JapaneseWord, ...]]] = {
    "motion": TEXT_TABLE, "free_text": TEXT_TABLE, "background": PLACE_TABLE, "time_of_day": TIME_TABLE,
    "camera": CAMERA_TABLE, "adverb": ADVERB_TABLE,
}
"""Which words each field of an instruction is read with (the Character field is a name: never read)."""


def in_english(instr: Instruction, names: Iterable[str] = ()) -> Instruction:
    """``instr`` with the Japanese words of its fields put into English (:func:`in_english_words`),
    ``names`` kept as written; the same instruction when it has no Japanese word of ours.

    Each field of the English instruction is the English of the whole field: give it the
    instruction as it is read (:func:`~studio.core.instruction.read_within`, each field held to
    :data:`~studio.engines.sketch.text.MAX_ANALYSED_CHARS` characters as written), so that no
    more is translated than is read. The English words are longer than the Japanese, so the
    English is read as far as :data:`~studio.engines.sketch.text.MAX_TRANSLATED_CHARS`
    (:func:`~studio.engines.sketch.text.reading_translation`), and a long Japanese turn is read
    as far as an English turn of the same length.

    A Background field that is one of ``names`` and nothing else is read as a place: the field
    says where, so 海 there is the sea even with someone called 海 in the cast."""
    return fields_in_english(instr, names, _FIELD_TABLES, _as_read, in_english_words)


def _as_read(value: str) -> str:
    """One field as its Japanese words are looked up: NFKC-normalised when it has Japanese in it
    (full-width letters and digits become plain ones, as the English reader reads them). It is
    not cut: the field's limit was applied as written, before (see :func:`in_english`)."""
    return unicodedata.normalize("NFKC", value) if has_japanese(value) else value


def written_as(instr: Instruction, english: Instruction) -> dict[str, str]:
    """For each field ``english`` (:func:`in_english`) changed, its English text -> as ``instr`` wrote it."""
    out: dict[str, str] = {}
    for field_name in _FIELD_TABLES:
        before, after = getattr(instr, field_name), getattr(english, field_name)
        if before != after:
            out[after] = before
    return out
